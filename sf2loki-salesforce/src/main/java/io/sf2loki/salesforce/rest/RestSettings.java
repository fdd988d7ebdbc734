package io.sf2loki.salesforce.rest;

import java.time.Duration;
import java.util.Objects;

/**
 * Timeouts and spool sizing of {@link HttpSalesforceRest} (SRC-25, ELF-8). The connect timeout
 * (SRC-25: 10 s) belongs to the {@link java.net.http.HttpClient}, see {@link
 * SalesforceHttpClients#create(Duration)}.
 *
 * @param responseHeadersTimeout time allowed until the response headers arrived (SRC-25: 120 s)
 * @param bodyIdleTimeout a body fails when no byte arrived for this long (SRC-25: 60 s)
 * @param spoolMemoryThresholdBytes bodies up to this many bytes stay in memory, larger ones go to a
 *     file (ELF-8: 8 MiB)
 */
public record RestSettings(
    Duration responseHeadersTimeout, Duration bodyIdleTimeout, long spoolMemoryThresholdBytes) {
  /** SRC-25 connect timeout. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** SRC-25 response-headers timeout. */
  public static final Duration DEFAULT_RESPONSE_HEADERS_TIMEOUT = Duration.ofSeconds(120);

  /** SRC-25 body idle timeout. */
  public static final Duration DEFAULT_BODY_IDLE_TIMEOUT = Duration.ofSeconds(60);

  /** ELF-8 in-memory spool limit: 8 MiB. */
  public static final long DEFAULT_SPOOL_MEMORY_THRESHOLD_BYTES = 8L * 1024 * 1024;

  public RestSettings {
    Objects.requireNonNull(responseHeadersTimeout, "responseHeadersTimeout");
    Objects.requireNonNull(bodyIdleTimeout, "bodyIdleTimeout");
    if (responseHeadersTimeout.isNegative()
        || responseHeadersTimeout.isZero()
        || bodyIdleTimeout.isNegative()
        || bodyIdleTimeout.isZero()) {
      throw new IllegalArgumentException("timeouts must be positive");
    }
    if (spoolMemoryThresholdBytes < 0) {
      throw new IllegalArgumentException("spoolMemoryThresholdBytes must be >= 0");
    }
  }

  /** The SPEC defaults: 120 s headers, 60 s body idle, 8 MiB in memory. */
  public static RestSettings defaults() {
    return new RestSettings(
        DEFAULT_RESPONSE_HEADERS_TIMEOUT,
        DEFAULT_BODY_IDLE_TIMEOUT,
        DEFAULT_SPOOL_MEMORY_THRESHOLD_BYTES);
  }
}
