package io.sf2loki.app.demo;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import java.util.concurrent.atomic.AtomicLong;

/** Wraps the Loki sink and counts real entries Loki accepted (delivered) and dropped. */
final class CountingSink implements Sink {
  private final Sink delegate;
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();

  CountingSink(Sink delegate) {
    this.delegate = delegate;
  }

  @Override
  public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    return open(batch).push(singleAttempt, stop);
  }

  @Override
  public Delivery open(Batch batch) {
    return count(batch, delegate.open(batch));
  }

  /** The delegate's delivery (which holds the batch's marks across retries), counted. */
  @Override
  public Delivery open(Batch batch, Retries retries) {
    return count(batch, delegate.open(batch, retries));
  }

  private Delivery count(Batch batch, Delivery d) {
    return (singleAttempt, stop) -> {
      try {
        PushResult r = d.push(singleAttempt, stop);
        int dropped = r.droppedByReason().values().stream().mapToInt(Integer::intValue).sum();
        this.dropped.addAndGet(dropped);
        delivered.addAndGet(batch.realCount() - dropped);
        return r;
      } catch (PermanentSinkException e) {
        dropped.addAndGet(batch.realCount());
        throw e;
      }
    };
  }

  long delivered() {
    return delivered.get();
  }

  long dropped() {
    return dropped.get();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
