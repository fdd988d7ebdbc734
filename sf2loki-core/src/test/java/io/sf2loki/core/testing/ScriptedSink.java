package io.sf2loki.core.testing;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * A test {@link Sink}: records delivered entries; outcomes can be scripted per call (a queue of
 * outcomes consumed in order; when empty, every push succeeds). An optional hook runs at the start
 * of each push (e.g. to fire a stop signal from inside a push).
 */
public final class ScriptedSink implements Sink {
  /** A scripted outcome. */
  public sealed interface Outcome permits Ok, Retry, Permanent {}

  public record Ok() implements Outcome {}

  public record Retry(int status, java.time.Duration retryAfter) implements Outcome {
    public Retry(int status) {
      this(status, java.time.Duration.ZERO);
    }
  }

  public record Permanent(String reason) implements Outcome {}

  private final Deque<Outcome> script = new ArrayDeque<>();
  private final List<LogEntry> delivered = new ArrayList<>();
  private final List<Boolean> singleAttemptFlags = new ArrayList<>();
  private volatile Consumer<Batch> onPush = b -> {};
  private volatile boolean failAlways;

  public synchronized ScriptedSink then(Outcome o) {
    script.addLast(o);
    return this;
  }

  public synchronized ScriptedSink thenRetry(int times) {
    for (int i = 0; i < times; i++) {
      script.addLast(new Retry(500));
    }
    return this;
  }

  /** While true, every push fails retryably (an outage). */
  public void setFailAlways(boolean fail) {
    this.failAlways = fail;
  }

  public void onPush(Consumer<Batch> hook) {
    this.onPush = hook;
  }

  @Override
  public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws RetryableSinkException, PermanentSinkException {
    onPush.accept(batch);
    Outcome o;
    synchronized (this) {
      singleAttemptFlags.add(singleAttempt);
      o = failAlways ? new Retry(503) : script.isEmpty() ? new Ok() : script.pollFirst();
    }
    switch (o) {
      case Retry r ->
          throw new RetryableSinkException(
              "scripted " + r.status(), r.status(), null, r.retryAfter());
      case Permanent p -> throw new PermanentSinkException("scripted", 400, p.reason());
      case Ok ok -> {
        synchronized (this) {
          delivered.addAll(batch.realEntries());
        }
        return PushResult.delivered(batch.realCount());
      }
    }
  }

  public synchronized List<LogEntry> delivered() {
    return List.copyOf(delivered);
  }

  public synchronized List<Boolean> singleAttemptFlags() {
    return List.copyOf(singleAttemptFlags);
  }
}
