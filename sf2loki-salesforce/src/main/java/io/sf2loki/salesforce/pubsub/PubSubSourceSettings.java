package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.settings.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Orchestration settings of one org's Pub/Sub source ({@code sources.pubsub}, SPEC §1.3, PS-16…
 * PS-21), already defaulted and validated by the configuration loader. The per-topic protocol
 * settings ({@code endpoint}, {@code default_num_requested}, replay presets, sampling, transforms)
 * belong to the {@link TopicRunner}.
 *
 * @param topics {@code topics} as configured, in order; an entry {@code "*"} requests discovery
 *     (PS-20)
 * @param filter the compiled {@code include}/{@code exclude} globs (PS-19, XF-11): true iff a topic
 *     matches at least one include glob and no exclude glob
 * @param rediscoveryInterval {@code rediscovery_interval} (PS-21); zero = discover at startup only
 * @param bridgeMaxBytes {@code bridge_max_bytes} in bytes (PS-17); zero disables the byte bound
 * @param discoveryAttempts attempts per discovery pass (PS-20: 3)
 * @param discoveryBackoff first wait between attempts of a pass, doubling, plus uniform jitter up
 *     to half of it (PS-20: 1 s)
 * @param discoveryRetryWhenNoInterval how often a failed startup discovery is retried when {@code
 *     rediscoveryInterval} is zero, plus uniform jitter up to half of it (PS-21: 5 min)
 * @param readerRestartBackoff first wait before a reader whose {@link TopicRunner} threw or
 *     returned early is restarted, doubling (PS-16; 1 s like PS-14)
 * @param readerRestartBackoffMax cap of the reader restart backoff (30 s like PS-14)
 */
public record PubSubSourceSettings(
    List<String> topics,
    Predicate<String> filter,
    Duration rediscoveryInterval,
    long bridgeMaxBytes,
    int discoveryAttempts,
    Duration discoveryBackoff,
    Duration discoveryRetryWhenNoInterval,
    Duration readerRestartBackoff,
    Duration readerRestartBackoffMax) {
  /** Definition of the {@code topics} key (SPEC §1.3). */
  public static final Setting TOPICS =
      Setting.list("topics", List.of(), "Topic names, or \"*\" to discover.", "PS-19")
          .example("/event/LoginEventStream");

  /** Definition of the {@code include} key (SPEC §1.3). */
  public static final Setting INCLUDE =
      Setting.list("include", List.of("*"), "Globs a topic must match.", "PS-19, XF-11");

  /** Definition of the {@code exclude} key (SPEC §1.3). */
  public static final Setting EXCLUDE =
      Setting.list("exclude", List.of(), "Globs that skip a topic.", "PS-19, XF-11");

  /** Definition of the {@code rediscovery_interval} key (SPEC §1.3). */
  public static final Setting REDISCOVERY_INTERVAL =
      Setting.duration(
          "rediscovery_interval",
          Duration.ofHours(1),
          "Time between topic discoveries; 0 = at startup only.",
          "PS-20");

  /** Definition of the {@code bridge_max_bytes} key (SPEC §1.3). */
  public static final Setting BRIDGE_MAX_BYTES =
      Setting.integer(
              "bridge_max_bytes",
              128L * 1024 * 1024,
              "Bytes held by the bridge; 0 disables.",
              "PIPE-24")
          .atLeast(0);

  /** PS-20: attempts per discovery pass. */
  public static final int DEFAULT_DISCOVERY_ATTEMPTS = 3;

  /** PS-20: first wait between discovery attempts. */
  public static final Duration DEFAULT_DISCOVERY_BACKOFF = Duration.ofSeconds(1);

  /** PS-21: retry period of a failed startup discovery when {@code rediscovery_interval} is 0. */
  public static final Duration DEFAULT_DISCOVERY_RETRY_WHEN_NO_INTERVAL = Duration.ofMinutes(5);

  /** PS-16 (with PS-14's schedule): first reader restart wait. */
  public static final Duration DEFAULT_READER_RESTART_BACKOFF = Duration.ofSeconds(1);

  /** PS-16 (with PS-14's schedule): reader restart wait cap. */
  public static final Duration DEFAULT_READER_RESTART_BACKOFF_MAX = Duration.ofSeconds(30);

  /**
   * Validates and copies.
   *
   * @throws IllegalArgumentException on a negative duration or byte budget, a non-positive backoff,
   *     or fewer than one discovery attempt
   */
  public PubSubSourceSettings {
    topics = List.copyOf(topics);
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(rediscoveryInterval, "rediscoveryInterval");
    Objects.requireNonNull(discoveryBackoff, "discoveryBackoff");
    Objects.requireNonNull(discoveryRetryWhenNoInterval, "discoveryRetryWhenNoInterval");
    Objects.requireNonNull(readerRestartBackoff, "readerRestartBackoff");
    Objects.requireNonNull(readerRestartBackoffMax, "readerRestartBackoffMax");
    if (rediscoveryInterval.isNegative()) {
      throw new IllegalArgumentException("rediscovery_interval must be >= 0");
    }
    if (bridgeMaxBytes < 0) {
      throw new IllegalArgumentException("bridge_max_bytes must be >= 0");
    }
    if (discoveryAttempts < 1) {
      throw new IllegalArgumentException("discoveryAttempts must be >= 1");
    }
    for (Duration d :
        List.of(
            discoveryBackoff,
            discoveryRetryWhenNoInterval,
            readerRestartBackoff,
            readerRestartBackoffMax)) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("backoffs must be > 0: " + d);
      }
    }
  }

  /**
   * The SPEC defaults for every timing not in the configuration.
   *
   * @param topics {@code topics} as configured (may contain {@code "*"})
   * @param filter compiled include/exclude globs (PS-19)
   * @param rediscoveryInterval {@code rediscovery_interval}; zero = startup only
   * @param bridgeMaxBytes {@code bridge_max_bytes}; zero = no byte bound
   */
  public static PubSubSourceSettings of(
      List<String> topics,
      Predicate<String> filter,
      Duration rediscoveryInterval,
      long bridgeMaxBytes) {
    return new PubSubSourceSettings(
        topics,
        filter,
        rediscoveryInterval,
        bridgeMaxBytes,
        DEFAULT_DISCOVERY_ATTEMPTS,
        DEFAULT_DISCOVERY_BACKOFF,
        DEFAULT_DISCOVERY_RETRY_WHEN_NO_INTERVAL,
        DEFAULT_READER_RESTART_BACKOFF,
        DEFAULT_READER_RESTART_BACKOFF_MAX);
  }

  /** Whether {@code "*"} is among the configured topics (PS-20). */
  public boolean discover() {
    return topics.contains(PubSubTopics.DISCOVER);
  }
}
