package io.sf2loki.core.org;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ScriptedSink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** ORG-13: an ORG-6 restart never moves a stored checkpoint backwards. */
class OrgRestartDrainTest {
  private static final OrgScope ORG = new OrgScope("b", "sandbox", false);
  private static final String KEY = "org=b:apexlog";
  private final SdkMeterProvider provider = SdkMeterProvider.builder().build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));

  @AfterEach
  void close() {
    provider.close();
  }

  /** The contained failure of the test (stands for an AuthException). */
  static final class TokenRevoked extends Exception {
    TokenRevoked() {
      super("token revoked");
    }
  }

  @Test
  @DisplayName(
      "ORG-13: the old instance's entries still queued are committed before the fresh instance"
          + " starts; it resumes from their last value, nothing is sent twice, and the stored"
          + " checkpoint never moves backwards")
  void org13_restartWaitsForQueuedEntries() throws Exception {
    InMemoryCheckpointStore store = new InMemoryCheckpointStore();
    List<String> written = new CopyOnWriteArrayList<>();
    LegacyKeyRemoval removal = new LegacyKeyRemoval(new Recording(store, written));
    CommittedKeys committed = new CommittedKeys(removal);
    CountDownLatch restartWaiting = new CountDownLatch(1);
    CommitWait observed =
        (values, stop) -> {
          assertThat(values).containsExactly(Map.entry(KEY, "5"));
          restartWaiting.countDown();
          return committed.await(values, stop);
        };
    CountDownLatch sinkReleased = new CountDownLatch(1);
    ScriptedSink sink = new ScriptedSink();
    sink.onPush(
        batch -> {
          try {
            sinkReleased.await(); // Loki is slow: the old instance's entries stay in flight
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    OrgCursorView view = new OrgCursorView(ORG, removal);
    List<String> readAtStart = new CopyOnWriteArrayList<>();
    List<Source> script =
        new ArrayList<>(
            List.of(
                new Counting(view, 5, true, readAtStart),
                new Counting(view, 2, false, readAtStart)));
    OrgSource source =
        new OrgSource(
            ORG,
            OrgIdGate.known("b", "00D000000000002"),
            () -> script.removeFirst(),
            e -> e instanceof TokenRevoked,
            time.sleeper(),
            observed);
    Pipeline p =
        new Pipeline(
            settings(),
            List.of(source),
            sink,
            removal,
            metrics,
            time.timeSource(),
            UnaryOperator.identity(),
            committed);
    Thread runner = Thread.ofPlatform().start(() -> runQuietly(p));
    assertThat(restartWaiting.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(readAtStart).containsExactly("none"); // the fresh instance has not started
    sinkReleased.countDown();
    runner.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(runner.isAlive()).isFalse();

    assertThat(source.restarts()).isEqualTo(1);
    assertThat(readAtStart).containsExactly("none", "5");
    assertThat(sink.delivered())
        .extracting(LogEntry::line)
        .containsExactly("1", "2", "3", "4", "5", "6", "7");
    assertThat(written)
        .isNotEmpty()
        .isSortedAccordingTo((a, b) -> Integer.parseInt(a) - Integer.parseInt(b));
    assertThat(store.snapshot()).containsEntry(KEY, "7");
  }

  @Test
  @DisplayName("ORG-13: the restart wait ends when the term stops; no fresh instance is built")
  void org13_stopEndsTheWait() throws Exception {
    CommittedKeys committed = new CommittedKeys(new InMemoryCheckpointStore());
    StopSignal stop = new StopSignal();
    Thread waiter =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    assertThat(committed.await(Map.of(KEY, "5"), stop)).isFalse();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    stop.stop();
    waiter.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(waiter.isAlive()).isFalse();
    assertThat(committed.await(Map.of(), new StopSignal())).isTrue();
  }

  private static void runQuietly(Pipeline p) {
    try {
      p.run(new StopSignal());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static PipelineSettings settings() {
    return new PipelineSettings(
        5, // a batch is full after the old instance's five entries
        1_048_576,
        Duration.ofSeconds(1),
        100,
        0,
        Duration.ofSeconds(5),
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        Map.of("job", "sf2loki"),
        Duration.ZERO);
  }

  /** Records every value written for {@link #KEY}, in write order. */
  private record Recording(CheckpointStore delegate, List<String> written)
      implements CheckpointStore {
    @Override
    public Optional<String> load(String key) {
      return delegate.load(key);
    }

    @Override
    public void commitMany(Map<String, String> values, Set<String> keysToRemove) {
      delegate.commitMany(values, keysToRemove);
      if (values.containsKey(KEY)) {
        written.add(values.get(KEY));
      }
    }

    @Override
    public void delete(String key) {
      delegate.delete(key);
    }

    @Override
    public Map<String, String> snapshot() {
      return delegate.snapshot();
    }

    @Override
    public void reset() {
      delegate.reset();
    }

    @Override
    public void close() {}
  }

  /** Reads its cursor n, emits n+1 … n+count with that cursor, then fails or ends. */
  private record Counting(CheckpointStore cursors, int count, boolean fail, List<String> read)
      implements Source {
    @Override
    public String name() {
      return "apexlog";
    }

    @Override
    public Lane lane() {
      return Lane.BULK;
    }

    @Override
    public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
      Optional<String> stored = cursors.load("apexlog");
      read.add(stored.orElse("none"));
      int n = stored.map(Integer::parseInt).orElse(0);
      for (int i = n + 1; i <= n + count; i++) {
        String v = Integer.toString(i);
        emitter.emit(
            LogEntry.of(
                Instant.parse("2026-12-03T09:00:00Z"),
                Map.of("source", "apexlog", "event_type", "ApexLog"),
                v,
                Map.of(),
                new CheckpointToken("apexlog", v)));
      }
      if (fail) {
        throw new TokenRevoked();
      }
    }
  }
}
