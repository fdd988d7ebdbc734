package io.sf2loki.salesforce.source;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.time.TimeSource;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.slf4j.Logger;

/**
 * What a source gets from its host for one leadership term, in the spirit of Kafka Connect's {@code
 * SourceTaskContext}: time (wall clock, monotonic ticker, stop-aware sleeper; SRC-26), the CPU pool
 * (PIPE-26), the instance's metrics, read-only access to its stored cursors (SRC-2) and the org's
 * API gate (OBS-21). Every source constructor takes it; a {@link SourceFactory} gets it inside an
 * {@link OrgTerm} together with the org's clients. The stop signal is the one handed to {@code
 * Source.run} (core SPI, fired by the term's pipeline); the framework's loops take it as an
 * argument.
 *
 * @param time wall clock, ticker and sleeper
 * @param cpu the bounded platform-thread pool for CPU-bound work
 * @param metrics the instance's metrics
 * @param cursors stored checkpoints, read-only (an org-prefixed view in multi-org, ORG-4)
 * @param gate asked before each poll of a polling source ({@link PollGate#OPEN} without an API
 *     reserve)
 */
public record SourceContext(
    TimeSource time, Executor cpu, Sf2lokiMetrics metrics, CursorReader cursors, PollGate gate) {
  public SourceContext {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(cpu, "cpu");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(cursors, "cursors");
    Objects.requireNonNull(gate, "gate");
  }

  /** A context with an always open gate. */
  public SourceContext(
      TimeSource time, Executor cpu, Sf2lokiMetrics metrics, CursorReader cursors) {
    this(time, cpu, metrics, cursors, PollGate.OPEN);
  }

  /**
   * A context whose cursors are read from {@code store} ({@link CheckpointStore#load}), with an
   * always open gate.
   */
  public static SourceContext of(
      TimeSource time, Executor cpu, Sf2lokiMetrics metrics, CheckpointStore store) {
    Objects.requireNonNull(store, "store");
    return new SourceContext(time, cpu, metrics, store::load);
  }

  /** This context with {@code time} (e.g. a test's sleeper) in place of its own. */
  public SourceContext withTime(TimeSource time) {
    return new SourceContext(time, cpu, metrics, cursors, gate);
  }

  /** This context with the OBS-21 {@code gate} in place of its own. */
  public SourceContext withGate(PollGate gate) {
    return new SourceContext(time, cpu, metrics, cursors, gate);
  }

  /** The CPU pool as an offload helper. */
  public CpuOffload offload() {
    return new CpuOffload(cpu);
  }

  /**
   * Loads one cursor (SRC-2, SRC-12): absent → {@code fresh}; unusable → {@code fresh}, a WARN with
   * {@code source, key, since} and one {@code sf2loki_checkpoint_load_errors_total{source}}.
   *
   * @param log the source's logger
   * @param source the {@code source} label
   * @param key the checkpoint key
   * @param codec reads the stored value
   * @param fresh the cursor to start from without a usable stored value
   * @param since the {@code since} logged for an unusable value (where {@code fresh} starts)
   * @param unusableMessage the WARN's message
   */
  public <C> C loadCursor(
      Logger log,
      String source,
      String key,
      CursorCodec<C> codec,
      C fresh,
      String since,
      String unusableMessage) {
    return stored().load(log, source, key, codec, fresh, since, unusableMessage);
  }

  /** The cursor loader over {@link #cursors()}. */
  public StoredCursors stored() {
    return new StoredCursors(cursors, metrics);
  }

  /** Seconds since the epoch of the wall clock, for the OBS-14 last-success gauge. */
  public double nowEpochSeconds() {
    return time.now().toEpochMilli() / 1000.0;
  }
}
