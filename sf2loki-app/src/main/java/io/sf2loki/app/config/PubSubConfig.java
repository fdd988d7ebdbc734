package io.sf2loki.app.config;

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
