package io.sf2loki.core.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ScriptedSink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgCheckpointKeysTest {
  private static final OrgScope FIRST = new OrgScope("a", "production", true);
  private static final OrgScope SECOND = new OrgScope("b", "sandbox", false);
  private final SdkMeterProvider provider = SdkMeterProvider.builder().build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));

  @AfterEach
  void close() {
    provider.close();
  }

  @Test
  @DisplayName("ORG-4: an org's sources read org=<name>:<key>; other orgs' keys are invisible")
  void org4_viewReadsPrefixedKeys() {
    var store =
        new InMemoryCheckpointStore(
            Map.of("org=a:apexlog", "A", "org=b:apexlog", "B", "egress:budget", "x"));
    var removal = new LegacyKeyRemoval(store);
    assertThat(new OrgCursorView(FIRST, removal).load("apexlog")).contains("A");
    assertThat(new OrgCursorView(SECOND, removal).load("apexlog")).contains("B");
    assertThat(new OrgCursorView(SECOND, removal).snapshot())
        .containsExactly(Map.entry("apexlog", "B"));
    assertThat(removal.pendingRemovals()).isEmpty();
  }

  @Test
  @DisplayName("ORG-4: sources never write through the view (SRC-2)")
  void org4_viewIsReadOnly() {
    var view = new OrgCursorView(FIRST, new LegacyKeyRemoval(new InMemoryCheckpointStore()));
    assertThatThrownBy(() -> view.commitMany(Map.of("k", "v"), Set.of()))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> view.delete("k")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  @DisplayName("ORG-5: only the first org falls back to the legacy key; the prefixed key wins")
  void org5_firstOrgOnlyFallsBack() {
    var store = new InMemoryCheckpointStore(Map.of("apexlog", "LEGACY", "pubsub:/event/X", "L2"));
    store.commitMany(Map.of("org=a:pubsub:/event/X", "P"), Set.of());
    var removal = new LegacyKeyRemoval(store);
    assertThat(new OrgCursorView(SECOND, removal).load("apexlog")).isEmpty();
    assertThat(new OrgCursorView(FIRST, removal).load("pubsub:/event/X")).contains("P");
    assertThat(removal.pendingRemovals()).isEmpty(); // no fallback happened
    assertThat(new OrgCursorView(FIRST, removal).load("apexlog")).contains("LEGACY");
    assertThat(removal.pendingRemovals()).containsExactly("apexlog");
  }

  @Test
  @DisplayName(
      "ORG-5, ORG-10: the write that first stores the prefixed key removes the legacy key in the"
          + " same write; other writes leave it")
  void org5_removalRidesTheFirstPrefixedWrite() {
    var store = new InMemoryCheckpointStore(Map.of("apexlog", "LEGACY", "eventlogfile:Login", "E"));
    var removal = new LegacyKeyRemoval(store);
    var view = new OrgCursorView(FIRST, removal);
    view.load("apexlog");
    removal.commitMany(Map.of("egress:budget", "{}"), Set.of());
    assertThat(store.snapshot()).containsKey("apexlog");
    removal.commitMany(Map.of("org=a:apexlog", "NEW"), Set.of());
    assertThat(store.snapshot())
        .doesNotContainKey("apexlog")
        .containsEntry("org=a:apexlog", "NEW")
        .containsEntry("eventlogfile:Login", "E"); // never read, never removed
    assertThat(removal.pendingRemovals()).isEmpty();
    assertThat(store.writes()).hasSize(2);
  }

  @Test
  @DisplayName("ORG-10: a failed write keeps the pending removal; the retry removes it")
  void org10_failedWriteRetriesTheRemoval() {
    var store = new InMemoryCheckpointStore(Map.of("apexlog", "LEGACY"));
    var removal = new LegacyKeyRemoval(store);
    new OrgCursorView(FIRST, removal).load("apexlog");
    store.failWritesWith(new StateException("disk full"));
    assertThatThrownBy(() -> removal.commitMany(Map.of("org=a:apexlog", "NEW"), Set.of()))
        .isInstanceOf(StateException.class);
    assertThat(removal.pendingRemovals()).containsExactly("apexlog");
    store.failWritesWith(null);
    removal.commitMany(Map.of("org=a:apexlog", "NEW"), Set.of());
    assertThat(store.snapshot()).containsOnlyKeys("org=a:apexlog");
  }

  @Test
  @DisplayName("ORG-10: term end (reset) forgets pending removals; the next read notes them again")
  void org10_resetForgetsPending() {
    var store = new InMemoryCheckpointStore(Map.of("apexlog", "LEGACY"));
    var removal = new LegacyKeyRemoval(store);
    new OrgCursorView(FIRST, removal).load("apexlog");
    removal.reset();
    assertThat(removal.pendingRemovals()).isEmpty();
    assertThat(store.resets()).isEqualTo(1);
    removal.commitMany(Map.of("org=a:apexlog", "NEW"), Set.of());
    assertThat(store.snapshot()).containsKey("apexlog"); // not read this term: left in place
  }

  @Test
  @DisplayName(
      "ORG-4, ORG-5: through the pipeline, a wrapped first-org source resumes from the legacy"
          + " key, commits prefixed keys and the legacy key is gone after the first commit")
  void org5_throughThePipeline() throws Exception {
    var store = new InMemoryCheckpointStore(Map.of("apexlog", "3"));
    var removal = new LegacyKeyRemoval(store);
    CheckpointStore view = new OrgCursorView(FIRST, removal);
    OrgSource source =
        new OrgSource(
            FIRST,
            OrgIdGate.known("a", "00D000000000001"),
            () -> new CountingSource(view),
            e -> false,
            time.sleeper(),
            CommitWait.NONE);
    ScriptedSink sink = new ScriptedSink();
    Pipeline p =
        new Pipeline(
            settings(),
            List.of(source),
            sink,
            removal,
            metrics,
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none());
    assertThat(p.run(new StopSignal())).isTrue();
    assertThat(sink.delivered()).extracting(LogEntry::line).containsExactly("4", "5");
    assertThat(sink.delivered().getFirst().labels())
        .containsEntry("org", "a")
        .containsEntry("sf_org_id", "00D000000000001")
        .containsEntry("environment", "production");
    assertThat(store.snapshot()).containsExactly(Map.entry("org=a:apexlog", "5"));
  }

  @Test
  @DisplayName(
      "STATE-18, ORG-10: two orgs in one pipeline share the one document; the first org's legacy"
          + " key leaves in the write that stores its prefixed key")
  void state18_twoOrgsOneDocument() throws Exception {
    var store = new InMemoryCheckpointStore(Map.of("apexlog", "7", "egress:budget", "{}"));
    var recording = new RecordingStore(store);
    var removal = new LegacyKeyRemoval(recording);
    List<Source> sources = new java.util.ArrayList<>();
    for (OrgScope org : List.of(FIRST, SECOND)) {
      CheckpointStore view = new OrgCursorView(org, removal);
      sources.add(
          new OrgSource(
              org,
              OrgIdGate.known(org.name(), "00D00000000000" + (org.first() ? "1" : "2")),
              () -> new CountingSource(view),
              e -> false,
              time.sleeper(),
              CommitWait.NONE));
    }
    ScriptedSink sink = new ScriptedSink();
    new Pipeline(
            settings(),
            sources,
            sink,
            removal,
            metrics,
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none())
        .run(new StopSignal());
    assertThat(store.snapshot())
        .containsOnly(
            Map.entry("org=a:apexlog", "9"),
            Map.entry("org=b:apexlog", "2"),
            Map.entry("egress:budget", "{}"));
    assertThat(sink.delivered())
        .filteredOn(e -> e.labels().get("org").equals("b"))
        .extracting(LogEntry::line)
        .containsExactly("1", "2");
    // the removal went with the first write that stored org=a:apexlog, and only with it
    int firstWithA = -1;
    for (int i = 0; i < recording.values.size() && firstWithA < 0; i++) {
      if (recording.values.get(i).containsKey("org=a:apexlog")) {
        firstWithA = i;
      }
    }
    assertThat(firstWithA).isNotNegative();
    for (int i = 0; i < recording.removed.size(); i++) {
      assertThat(recording.removed.get(i))
          .isEqualTo(i == firstWithA ? Set.of("apexlog") : Set.of());
    }
    assertThat(removal.pendingRemovals()).isEmpty();
  }

  private static PipelineSettings settings() {
    return new PipelineSettings(
        10,
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

  /** Records each write's values and removed keys, then delegates. */
  private static final class RecordingStore implements CheckpointStore {
    final List<Map<String, String>> values = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<Set<String>> removed = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final CheckpointStore delegate;

    RecordingStore(CheckpointStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public Optional<String> load(String key) {
      return delegate.load(key);
    }

    @Override
    public void commitMany(Map<String, String> v, Set<String> keysToRemove) {
      delegate.commitMany(v, keysToRemove);
      values.add(Map.copyOf(v));
      removed.add(Set.copyOf(keysToRemove));
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

  /** Reads {@code apexlog} as a number n and emits n+1 and n+2 with that cursor, then ends. */
  private record CountingSource(CheckpointStore cursors) implements Source {
    @Override
    public String name() {
      return "apexlog";
    }

    @Override
    public Lane lane() {
      return Lane.BULK;
    }

    @Override
    public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
      Optional<String> stored = cursors.load("apexlog");
      int n = stored.map(Integer::parseInt).orElse(0);
      for (int i = n + 1; i <= n + 2; i++) {
        String v = Integer.toString(i);
        emitter.emit(
            LogEntry.of(
                Instant.parse("2026-12-03T09:00:00Z"),
                Map.of("source", "apexlog", "event_type", "ApexLog"),
                v,
                Map.of(),
                new CheckpointToken("apexlog", v)));
      }
    }
  }
}
