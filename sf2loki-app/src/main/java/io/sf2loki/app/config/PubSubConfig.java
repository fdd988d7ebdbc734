package io.sf2loki.app.config;

import io.sf2loki.core.transform.Glob;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code sources.pubsub} (SPEC §1.3, PS).
 *
 * @param enabled default true
 * @param endpoint gRPC target {@code host:port}, default {@code api.pubsub.salesforce.com:7443}
 * @param tls default true; false = plaintext gRPC (local simulator only)
 * @param defaultNumRequested 1…100, default 100
 * @param replayPreset default CUSTOM (PS-13)
 * @param onInvalidReplay default EARLIEST (PS-13, PS-15)
 * @param topics topic names or {@code "*"}
 * @param include globs, default {@code ["*"]}
 * @param exclude globs, default empty
 * @param rediscoveryInterval default 1 hour; zero = discover at startup only
 * @param sample glob → rate in (0, 1], in configured order (first match wins)
 * @param transforms rules (XF)
 * @param bridgeMaxBytes bytes, ≥ 0, default 134217728; 0 disables the byte bound
 */
public record PubSubConfig(
    boolean enabled,
    String endpoint,
    boolean tls,
    int defaultNumRequested,
    ReplayPreset replayPreset,
    InvalidReplayPreset onInvalidReplay,
    List<String> topics,
    List<String> include,
    List<String> exclude,
    Duration rediscoveryInterval,
    Map<String, Double> sample,
    List<TransformRule> transforms,
    long bridgeMaxBytes) {

  /**
   * The compiled {@code include}/{@code exclude} filter (PS-19, XF-11 globs).
   *
   * @return true for a topic that matches at least one include glob and no exclude glob
   */
  public java.util.function.Predicate<String> topicFilter() {
    List<java.util.regex.Pattern> in = include.stream().map(Glob::toPattern).toList();
    List<java.util.regex.Pattern> ex = exclude.stream().map(Glob::toPattern).toList();
    return t ->
        in.stream().anyMatch(p -> p.matcher(t).matches())
            && ex.stream().noneMatch(p -> p.matcher(t).matches());
  }

  /**
   * The explicit topics that survive the filters (PS-19): {@code *} dropped, de-duplicated in
   * order, kept iff included and not excluded. These are the topics known at build time (SRC-23
   * overlap check, SRC-24 seed, startup banner).
   *
   * @return the filtered explicit topics
   */
  public List<String> explicitTopics() {
    java.util.function.Predicate<String> filter = topicFilter();
    return new java.util.LinkedHashSet<>(topics)
        .stream().filter(t -> !t.equals("*")).filter(filter).toList();
  }

  /**
   * The compiled {@code sample} map (XF-9): the rate of the first glob, in configured order, that
   * matches the topic; 1.0 when none matches.
   *
   * @return topic → rate in (0, 1]
   */
  public java.util.function.ToDoubleFunction<String> sampleRates() {
    List<Map.Entry<java.util.regex.Pattern, Double>> rules =
        sample.entrySet().stream()
            .map(e -> Map.entry(Glob.toPattern(e.getKey()), e.getValue()))
            .toList();
    return t -> {
      for (Map.Entry<java.util.regex.Pattern, Double> r : rules) {
        if (r.getKey().matcher(t).matches()) {
          return r.getValue();
        }
      }
      return 1.0;
    };
  }

  /** {@code replay_preset}. */
  public enum ReplayPreset implements YamlEnum {
    LATEST,
    EARLIEST,
    CUSTOM;

    @Override
    public String yaml() {
      return name();
    }
  }

  /** {@code on_invalid_replay}. */
  public enum InvalidReplayPreset implements YamlEnum {
    EARLIEST,
    LATEST;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
