package io.sf2loki.salesforce.pubsub;

import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Process-lifetime registry of the topics currently held on an undecodable event (SPEC PS-6,
 * OBS-8): a topic reader {@link #hold holds} its topic from the first decode failure until the
 * event decodes or is skipped, then {@link #release releases} it. Readiness reports {@code
 * degraded: topic <t> cannot decode events} for the first held topic in name order. Thread-safe.
 */
public final class UndecodableTopics {
  private final ConcurrentSkipListSet<String> held = new ConcurrentSkipListSet<>();

  /** Marks {@code topic} as held on an undecodable event. */
  public void hold(String topic) {
    held.add(topic);
  }

  /** Clears the mark of {@code topic} (no-op when not held). */
  public void release(String topic) {
    held.remove(topic);
  }

  /**
   * The first held topic in name order.
   *
   * @return the topic, or empty when none is held
   */
  public Optional<String> first() {
    return Optional.ofNullable(held.isEmpty() ? null : held.first());
  }

  /**
   * The readiness body for the first held topic (OBS-8).
   *
   * @return {@code degraded: topic <t> cannot decode events}, or empty
   */
  public Optional<String> degradation() {
    return first().map(t -> "degraded: topic " + t + " cannot decode events");
  }
}
