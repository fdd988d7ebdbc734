package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.egress.BudgetAction;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Property-style test (seeded random; the seed is printed on failure) of the commit invariant of
 * SPEC PIPE-1, PIPE-9, PIPE-16 and PIPE-19 (9): for random sequences of real and checkpoint-only
 * entries over several keys, random push outcomes (ok / retryable / permanent), budget drops in
 * half of the cases, and a stop at a random push, after the term the committed value of every key
 * is never ahead of the first entry of that key that was neither delivered nor deliberately
 * dropped.
 */
class CommitInvariantPropertyTest {
  private static final int CASES = Integer.getInteger("sf2loki.property.cases", 1000);
  private static final long BASE_SEED = Long.getLong("sf2loki.property.seed", 20261129L);

  /** A sink with seeded random outcomes that records what it delivered and dropped. */
  private static final class RandomSink implements Sink {
    private final Random random;
    private final int stopAtPush;
    private final StopSignal stop;
    final Set<String> handled = new HashSet<>(); // values delivered or permanently dropped
    final Set<String> seen = new HashSet<>(); // values of every batch that reached the sink
    private int pushes;

    RandomSink(Random random, int stopAtPush, StopSignal stop) {
      this.random = random;
      this.stopAtPush = stopAtPush;
      this.stop = stop;
    }

    @Override
    public synchronized PushResult push(Batch batch, boolean singleAttempt, StopSignal s)
        throws RetryableSinkException, PermanentSinkException {
      for (LogEntry e : batch.realEntries()) {
        seen.add(e.checkpoint().value());
      }
      if (++pushes == stopAtPush) {
        stop.stop();
      }
      int r = random.nextInt(10);
      if (r < 3) {
        throw new RetryableSinkException("random outage", 503);
      }
      for (LogEntry e : batch.realEntries()) {
        handled.add(e.checkpoint().value());
      }
      if (r == 3) {
        throw new PermanentSinkException("random rejection", 400, "bad_request");
      }
      return PushResult.delivered(batch.realCount());
    }
  }

  @Test
  @DisplayName(
      "PIPE-19 (9), PIPE-1, PIPE-9, PIPE-16, EGR-4: committed values never run ahead of the first undelivered entry of their key")
  void pipe19_9_committedNeverAheadOfDelivery() throws Exception {
    Sf2lokiMetrics metrics = Sf2lokiMetrics.noop();
    for (int c = 0; c < CASES; c++) {
      long seed = BASE_SEED + c;
      Random random = new Random(seed);
      int keys = 1 + random.nextInt(3);
      int n = 1 + random.nextInt(30);
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String key = "k" + random.nextInt(keys);
        String value = String.format("%04d", i); // increasing per key in emission order
        CheckpointToken t = new CheckpointToken(key, value);
        entries.add(
            random.nextInt(5) == 0
                ? LogEntry.checkpointOnly(t)
                : LogEntry.of(Instant.EPOCH, Map.of("source", "pubsub"), "l" + i, Map.of(), t));
      }
      StopSignal stop = new StopSignal();
      RandomSink sink = new RandomSink(random, 1 + random.nextInt(n + 5), stop);
      InMemoryCheckpointStore store = new InMemoryCheckpointStore();
      FakeTime time = new FakeTime(Instant.parse("2026-11-29T00:00:00Z"));
      // half of the cases also drop batches by a small daily budget (EGR-4)
      boolean budget = random.nextBoolean();
      EgressGovernor governor =
          new EgressGovernor(
              budget
                  ? new EgressSettings(0, 0, 10 + random.nextInt(40), BudgetAction.DROP)
                  : EgressSettings.disabled(),
              time.timeSource(),
              metrics,
              Optional.empty());
      Pipeline p =
          new Pipeline(
              new PipelineSettings(
                  1 + random.nextInt(5),
                  1_048_576,
                  Duration.ofSeconds(1),
                  100,
                  0,
                  Duration.ofSeconds(5),
                  Duration.ofSeconds(1),
                  Duration.ofSeconds(30),
                  Map.of(),
                  Duration.ZERO),
              List.of(new ListSource("random", Lane.STREAMING, entries)),
              sink,
              store,
              metrics,
              time.timeSource(),
              UnaryOperator.identity(),
              CommitListener.none(),
              governor);
      p.run(stop);

      for (Map.Entry<String, String> committed : store.snapshot().entrySet()) {
        String key = committed.getKey();
        for (LogEntry e : entries) {
          if (!e.checkpoint().key().equals(key) || e.checkpointOnly()) {
            continue;
          }
          if (e.checkpoint().value().compareTo(committed.getValue()) <= 0) {
            if (budget && !sink.seen.contains(e.checkpoint().value())) {
              continue; // dropped by the budget before reaching the sink: a deliberate drop
            }
            assertThat(sink.handled)
                .as(
                    "seed %d: key %s committed %s but real entry %s was never delivered or dropped",
                    seed, key, committed.getValue(), e.checkpoint().value())
                .contains(e.checkpoint().value());
          }
        }
      }
    }
  }
}
