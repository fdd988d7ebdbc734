package io.sf2loki.sim.pubsub;

import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntBiFunction;

/**
 * Faults queued per topic of one {@link SimPubSub}. Thread-safe; mutate at any time. Queued faults
 * are consumed by the next {@code Subscribe} calls of the topic in the order they were added;
 * {@link #dropOpenStreams(String, Status.Code)} and {@link #silence(String)} act on the calls
 * already open. For an undecodable event use {@link SimPubSub#publishPoison(String)}.
 */
public final class PubSubFaults {
  private final Map<String, Deque<SubscribeFailure>> failures = new HashMap<>();
  private final Map<String, Deque<StreamEnd>> drops = new HashMap<>();
  private final Map<String, Deque<Status.Code>> schemaFailures = new HashMap<>();
  private final Set<String> silent = new HashSet<>();
  private final Runnable onUnsilence;
  private final ToIntBiFunction<String, Status.Code> dropper;

  /**
   * A refused subscription.
   *
   * @param code gRPC status code of the error
   * @param errorCode value of the {@code error-code} trailer, or null for none
   */
  public record SubscribeFailure(Status.Code code, String errorCode) {}

  /**
   * A stream ended by the server after some events.
   *
   * @param events events delivered before the end (≥ 0)
   * @param code status of the end; {@code OK} = a clean end of stream ({@code onCompleted})
   */
  public record StreamEnd(int events, Status.Code code) {}

  PubSubFaults(Runnable onUnsilence, ToIntBiFunction<String, Status.Code> dropper) {
    this.onUnsilence = onUnsilence;
    this.dropper = dropper;
  }

  /**
   * The next {@code Subscribe} of {@code topic} fails on its first {@code FetchRequest} with {@code
   * code} and, when {@code errorCode} is not null, trailer {@code error-code: errorCode}. Returns
   * this.
   */
  public synchronized PubSubFaults failNextSubscribe(
      String topic, Status.Code code, String errorCode) {
    failures
        .computeIfAbsent(Objects.requireNonNull(topic), t -> new ArrayDeque<>())
        .add(new SubscribeFailure(Objects.requireNonNull(code), errorCode));
    return this;
  }

  /**
   * {@link #failNextSubscribe(String, Status.Code, String)} with the usual trailer: {@link
   * SimPubSub#AUTH_ERROR} for {@code UNAUTHENTICATED}, none otherwise (e.g. {@code UNAVAILABLE}).
   */
  public PubSubFaults failNextSubscribe(String topic, Status.Code code) {
    return failNextSubscribe(
        topic, code, code == Status.Code.UNAUTHENTICATED ? SimPubSub.AUTH_ERROR : null);
  }

  /**
   * The next {@code Subscribe} of {@code topic} delivers at most {@code events} events (≥ 0) and
   * then ends with status {@code UNAVAILABLE} (no trailer). Returns this.
   */
  public PubSubFaults dropStreamAfter(String topic, int events) {
    return endStreamAfter(topic, events, Status.Code.UNAVAILABLE);
  }

  /**
   * The next {@code Subscribe} of {@code topic} delivers at most {@code events} events (≥ 0) and
   * then ends with {@code code} (no trailer), or completes cleanly when {@code code} is {@code OK}
   * (PS-14's clean end of stream). Returns this.
   */
  public synchronized PubSubFaults endStreamAfter(String topic, int events, Status.Code code) {
    if (events < 0) {
      throw new IllegalArgumentException("events must be >= 0");
    }
    drops
        .computeIfAbsent(Objects.requireNonNull(topic), t -> new ArrayDeque<>())
        .add(new StreamEnd(events, Objects.requireNonNull(code)));
    return this;
  }

  /**
   * The next {@code GetSchema} of {@code schemaId} fails with {@code code} (PS-6/PS-9 schema fetch
   * failures). Returns this.
   */
  public synchronized PubSubFaults failNextGetSchema(String schemaId, Status.Code code) {
    schemaFailures
        .computeIfAbsent(Objects.requireNonNull(schemaId), t -> new ArrayDeque<>())
        .add(Objects.requireNonNull(code));
    return this;
  }

  /**
   * Ends every {@code Subscribe} call of {@code topic} that is open now (it has sent its first
   * {@code FetchRequest}) with status {@code code} and no trailer, or completes it cleanly when
   * {@code code} is {@code OK}. Calls opened later are not affected; combine with {@link
   * #failNextSubscribe(String, Status.Code, String)} (queued first) to refuse the client's
   * resubscription.
   *
   * @return the number of calls ended (0 when none was open)
   */
  public int dropOpenStreams(String topic, Status.Code code) {
    // not synchronized: the streams take their own locks and then read this schedule
    return dropper.applyAsInt(Objects.requireNonNull(topic), Objects.requireNonNull(code));
  }

  /**
   * Every open and future stream of {@code topic} goes silent: no events and no keepalives, but the
   * call stays open and requests are still counted (for PS-8 watchdog tests). Returns this.
   */
  public synchronized PubSubFaults silence(String topic) {
    silent.add(Objects.requireNonNull(topic));
    return this;
  }

  /** Ends {@link #silence(String)}; owed events are delivered at once. */
  public void unsilence(String topic) {
    synchronized (this) {
      silent.remove(topic);
    }
    onUnsilence.run();
  }

  /** True while {@code topic} is silenced. */
  public synchronized boolean isSilent(String topic) {
    return silent.contains(topic);
  }

  /** Removes every queued fault and ends every silence. */
  public void clear() {
    synchronized (this) {
      failures.clear();
      drops.clear();
      schemaFailures.clear();
      silent.clear();
    }
    onUnsilence.run();
  }

  synchronized Optional<SubscribeFailure> takeFailure(String topic) {
    Deque<SubscribeFailure> q = failures.get(topic);
    return q == null ? Optional.empty() : Optional.ofNullable(q.pollFirst());
  }

  /** The queued end of the next stream of {@code topic}, or null for none. */
  synchronized StreamEnd takeDrop(String topic) {
    Deque<StreamEnd> q = drops.get(topic);
    return q == null ? null : q.pollFirst();
  }

  synchronized Optional<Status.Code> takeSchemaFailure(String schemaId) {
    Deque<Status.Code> q = schemaFailures.get(schemaId);
    return q == null ? Optional.empty() : Optional.ofNullable(q.pollFirst());
  }
}
