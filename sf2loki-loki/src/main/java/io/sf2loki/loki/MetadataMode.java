package io.sf2loki.loki;

/** {@code sink.loki.structured_metadata} (SPEC SINK-12). */
public enum MetadataMode {
  /** Send metadata until Loki refuses it once, then never again in this process. */
  AUTO,
  /** Always send metadata; a refusal is a request-wide configuration outage (retryable). */
  ON,
  /** Never send metadata. */
  OFF
}
