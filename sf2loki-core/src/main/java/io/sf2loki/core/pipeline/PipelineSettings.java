package io.sf2loki.core.pipeline;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Batching, queue and shutdown bounds of one pipeline (SPEC PIPE-3, PIPE-5, PIPE-13; config keys
 * {@code sink.loki.batch.*} and {@code service.shutdown_grace}).
 *
 * @param maxEntries flush when a batch holds this many entries (real + checkpoint-only), ≥ 1
 * @param maxBytes flush when Σ(line bytes + 64) over real entries reaches this many bytes
 * @param flushInterval flush when this long has passed since the batch's first entry
 * @param queueMaxSize per-lane queue bound in entries
 * @param queueMaxBytes per-lane queue bound in bytes (PIPE-3 cost); 0 disables the byte bound
 * @param shutdownGrace how long a stopping pipeline may drain before it is cancelled
 * @param retryInitial first wait between retries of a failing batch (PIPE-7: 1 s)
 * @param retryMax longest wait between retries of a failing batch (PIPE-7: 30 s)
 * @param staticLabels labels merged over every real entry's labels (PIPE-4)
 * @param minWriteInterval least time between two checkpoint writes ({@code
 *     state.min_write_interval}, PIPE-9)
 */
public record PipelineSettings(
    int maxEntries,
    long maxBytes,
    Duration flushInterval,
    int queueMaxSize,
    long queueMaxBytes,
    Duration shutdownGrace,
    Duration retryInitial,
    Duration retryMax,
    Map<String, String> staticLabels,
    Duration minWriteInterval) {

  public PipelineSettings {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be >= 1");
    }
    if (queueMaxSize < 1) {
      throw new IllegalArgumentException("queueMaxSize must be >= 1");
    }
    Objects.requireNonNull(flushInterval, "flushInterval");
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    staticLabels = Map.copyOf(staticLabels);
    Objects.requireNonNull(minWriteInterval, "minWriteInterval");
  }

  /**
   * SPEC defaults: 1000 entries, 1 MiB, 1 s, 10000 entries, 256 MiB, 25 s grace, no write pause.
   */
  public static PipelineSettings defaults(Map<String, String> staticLabels) {
    return new PipelineSettings(
        1000,
        1_048_576,
        Duration.ofSeconds(1),
        10_000,
        268_435_456L,
        Duration.ofSeconds(25),
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        staticLabels,
        Duration.ZERO);
  }

  /** A copy with the static labels of one org (PIPE-4). */
  public PipelineSettings withStaticLabels(Map<String, String> labels) {
    return new PipelineSettings(
        maxEntries,
        maxBytes,
        flushInterval,
        queueMaxSize,
        queueMaxBytes,
        shutdownGrace,
        retryInitial,
        retryMax,
        labels,
        minWriteInterval);
  }

  /**
   * A copy with another shutdown grace (PIPE-13, {@code service.shutdown_grace}) and checkpoint
   * write interval (PIPE-9, {@code state.min_write_interval}).
   */
  public PipelineSettings withTiming(Duration grace, Duration writeInterval) {
    return new PipelineSettings(
        maxEntries,
        maxBytes,
        flushInterval,
        queueMaxSize,
        queueMaxBytes,
        grace,
        retryInitial,
        retryMax,
        staticLabels,
        writeInterval);
  }
}
