package io.sf2loki.salesforce.rest;

import io.sf2loki.core.time.Ticker;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Writes a response body into a {@link SpoolWriter} as it arrives and records the monotonic time of
 * the last progress, which the caller's idle watchdog (SRC-25) reads. Thread-safe for the one
 * producer (the HTTP client) and one watcher.
 */
final class SpoolingSubscriber implements HttpResponse.BodySubscriber<Void> {
  private final SpoolWriter writer;
  private final Ticker ticker;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private volatile long lastProgressNanos;
  private volatile Flow.Subscription subscription;

  SpoolingSubscriber(SpoolWriter writer, Ticker ticker) {
    this.writer = writer;
    this.ticker = ticker;
    this.lastProgressNanos = ticker.nanoTime();
  }

  /** Monotonic time of the headers or of the latest body bytes. */
  long lastProgressNanos() {
    return lastProgressNanos;
  }

  /** Completes when the body is fully written (or failed). */
  CompletableFuture<Void> done() {
    return done;
  }

  /** Stops receiving (watchdog or interruption); the body is failed with {@code cause}. */
  void abort(Throwable cause) {
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
    done.completeExceptionally(cause);
  }

  @Override
  public CompletionStage<Void> getBody() {
    return done;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (done.isDone()) {
      s.cancel();
      return;
    }
    s.request(1);
  }

  /** Drops what was written (after {@link #abort}); waits for a write in progress. */
  void discard() {
    synchronized (writer) {
      writer.abort();
    }
  }

  @Override
  public void onNext(List<ByteBuffer> item) {
    synchronized (writer) {
      if (done.isDone()) {
        return;
      }
      try {
        for (ByteBuffer b : item) {
          if (b.hasArray()) {
            writer.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
          } else {
            byte[] copy = new byte[b.remaining()];
            b.get(copy);
            writer.write(copy, 0, copy.length);
          }
        }
      } catch (IOException e) {
        abort(e);
        return;
      }
    }
    lastProgressNanos = ticker.nanoTime();
    subscription.request(1);
  }

  @Override
  public void onError(Throwable t) {
    done.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    done.complete(null);
  }
}
