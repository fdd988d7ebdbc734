package io.sf2loki.bench;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps a sink and clocks acknowledgements: the monotonic time of the first and of the {@code
 * target}-th acknowledged real entry, the entries and UTF-8 line bytes acknowledged; fires {@code
 * done} once {@code target} real entries are acknowledged (the harness's end of a run).
 */
final class AckClockSink implements Sink {
  private final Sink delegate;
  private final long target;
  private final StopSignal done;
  final AtomicLong entries = new AtomicLong();
  final AtomicLong lineBytes = new AtomicLong();
  volatile long firstAckNanos;
  volatile long lastAckNanos;

  /**
   * @param delegate the measured sink
   * @param target real entries after which {@code done} fires
   * @param done fired once, from the pushing thread
   */
  AckClockSink(Sink delegate, long target, StopSignal done) {
    this.delegate = delegate;
    this.target = target;
    this.done = done;
  }

  @Override
  public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    PushResult r = delegate.push(batch, singleAttempt, stop);
    long bytes = 0;
    int real = 0;
    for (LogEntry e : batch.entries()) {
      if (!e.checkpointOnly()) {
        bytes += e.lineBytes();
        real++;
      }
    }
    if (real == 0) {
      return r;
    }
    long now = System.nanoTime();
    if (entries.get() == 0) {
      firstAckNanos = now;
    }
    lineBytes.addAndGet(bytes);
    if (entries.addAndGet(real) >= target && lastAckNanos == 0) {
      lastAckNanos = now;
      done.stop();
    }
    return r;
  }

  @Override
  public void close() {
    delegate.close();
  }
}
