package io.sf2loki.core.pipeline;

import io.sf2loki.core.settings.Setting;
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
  /** Definition of the {@code max_entries} key (SPEC §1.3). */
  public static final Setting MAX_ENTRIES =
      Setting.integer("max_entries", 1000, "Entries per push.", "PIPE-5").atLeast(1);

  /** Definition of the {@code max_bytes} key (SPEC §1.3). */
  public static final Setting MAX_BYTES =
      Setting.integer("max_bytes", 1_048_576L, "Bytes per push.", "PIPE-5").atLeast(1024);

  /** Definition of the {@code flush_interval} key (SPEC §1.3). */
  public static final Setting FLUSH_INTERVAL =
      Setting.duration(
              "flush_interval", Duration.ofSeconds(1), "Longest wait to fill a batch.", "PIPE-5")
          .greaterThan(0);

  /** Definition of the {@code queue_maxsize} key (SPEC §1.3). */
  public static final Setting QUEUE_MAXSIZE =
      Setting.integer("queue_maxsize", 10_000, "Entries per lane queue.", "PIPE-3").atLeast(100);

  /** Definition of the {@code queue_max_bytes} key (SPEC §1.3). */
  public static final Setting QUEUE_MAX_BYTES =
      Setting.integer("queue_max_bytes", 268_435_456, "Bytes per lane queue; 0 disables.", "PIPE-3")
          .atLeast(0);

  /** Definition of the {@code shutdown_grace} key (SPEC §1.3). */
  public static final Setting SHUTDOWN_GRACE =
      Setting.duration("shutdown_grace", Duration.ofSeconds(25), "Drain time at stop.", "PIPE-13");

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
        (int) MAX_ENTRIES.longDefault(),
        MAX_BYTES.longDefault(),
        FLUSH_INTERVAL.durationDefault(),
        (int) QUEUE_MAXSIZE.longDefault(),
        QUEUE_MAX_BYTES.longDefault(),
        SHUTDOWN_GRACE.durationDefault(),
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
