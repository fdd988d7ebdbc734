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

/**
 * Faults queued per topic of one {@link SimPubSub}. Thread-safe; mutate at any time. Queued faults
 * are consumed by the next {@code Subscribe} calls of the topic in the order they were added. For
 * an undecodable event use {@link SimPubSub#publishPoison(String)}.
 */
public final class PubSubFaults {
  private final Map<String, Deque<SubscribeFailure>> failures = new HashMap<>();
  private final Map<String, Deque<Integer>> drops = new HashMap<>();
  private final Set<String> silent = new HashSet<>();
  private final Runnable onUnsilence;

  /**
   * A refused subscription.
   *
   * @param code gRPC status code of the error
   * @param errorCode value of the {@code error-code} trailer, or null for none
   */
  public record SubscribeFailure(Status.Code code, String errorCode) {}

  PubSubFaults(Runnable onUnsilence) {
    this.onUnsilence = onUnsilence;
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
  public synchronized PubSubFaults dropStreamAfter(String topic, int events) {
    if (events < 0) {
      throw new IllegalArgumentException("events must be >= 0");
    }
    drops.computeIfAbsent(Objects.requireNonNull(topic), t -> new ArrayDeque<>()).add(events);
    return this;
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
      silent.clear();
    }
    onUnsilence.run();
  }

  synchronized Optional<SubscribeFailure> takeFailure(String topic) {
    Deque<SubscribeFailure> q = failures.get(topic);
    return q == null ? Optional.empty() : Optional.ofNullable(q.pollFirst());
  }

  /** Events before a queued drop, or -1 for none. */
  synchronized int takeDrop(String topic) {
    Deque<Integer> q = drops.get(topic);
    Integer n = q == null ? null : q.pollFirst();
    return n == null ? -1 : n;
  }
}
