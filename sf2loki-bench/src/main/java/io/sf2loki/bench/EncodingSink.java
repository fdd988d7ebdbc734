package io.sf2loki.bench;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.encode.EncodedRequest;
import io.sf2loki.loki.encode.LokiEncoder;
import io.sf2loki.loki.encode.ProtobufEncoder;
import io.sf2loki.loki.encode.SnappyCodec;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-process sink of harness (a): encodes each batch exactly as the Loki sink does (protobuf +
 * snappy, on the CPU pool as PIPE-26 wants) and discards the body.
 */
final class EncodingSink implements Sink {
  private final LokiEncoder encoder = new ProtobufEncoder(new SnappyCodec());
  private final Executor cpu;
  final AtomicLong entries = new AtomicLong();
  final AtomicLong bodyBytes = new AtomicLong();
  final AtomicLong pushes = new AtomicLong();

  /** Σ nanoseconds an encode task waited in the CPU pool's queue before it ran. */
  final AtomicLong poolWaitNanos = new AtomicLong();

  /** Σ nanoseconds the encode tasks ran. */
  final AtomicLong encodeNanos = new AtomicLong();

  EncodingSink(Executor cpu) {
    this.cpu = cpu;
  }

  @Override
  public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws InterruptedException {
    List<LogEntry> real = batch.realEntries();
    if (real.isEmpty()) {
      return PushResult.delivered(0);
    }
    EncodedRequest r;
    try {
      long submitted = System.nanoTime();
      r =
          CompletableFuture.supplyAsync(
                  () -> {
                    long started = System.nanoTime();
                    poolWaitNanos.addAndGet(started - submitted);
                    EncodedRequest out = encoder.encode(real, true);
                    encodeNanos.addAndGet(System.nanoTime() - started);
                    return out;
                  },
                  cpu)
              .get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    entries.addAndGet(real.size());
    bodyBytes.addAndGet(r.body().length);
    pushes.incrementAndGet();
    return PushResult.delivered(r.body().length);
  }
}
