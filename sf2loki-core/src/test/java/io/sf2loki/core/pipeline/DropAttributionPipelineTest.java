package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.DropAttribution;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.testing.ScriptedSink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** FEAT-10, OBS-37 through the lane: what the dropped-entries counter records, on and off. */
class DropAttributionPipelineTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();

  @AfterEach
  void close() {
    provider.close();
  }

  private static LogEntry real(String key, String value, String source, String type, String org) {
    Map<String, String> labels = new HashMap<>(Map.of("source", source, "event_type", type));
    if (org != null) {
      labels.put("org", org);
    }
    return LogEntry.of(
        Instant.parse("2026-11-29T11:59:00Z"),
        labels,
        "line " + value,
        Map.of(),
        new CheckpointToken(key, value));
  }

  private void run(DropAttribution attribution, Sink sink, List<LogEntry> entries)
      throws Exception {
    Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test", attribution);
    Source src = new ListSource("s", Lane.BULK, entries);
    new Pipeline(
            new PipelineSettings(
                10,
                1_048_576,
                Duration.ofSeconds(1),
                100,
                0,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Map.of("job", "sf2loki"),
                Duration.ZERO),
            List.of(src),
            sink,
            store,
            metrics,
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none())
        .run(new StopSignal());
  }

  private Map<Attributes, Long> dropped() {
    Map<Attributes, Long> out = new HashMap<>();
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_loki_entries_dropped")) {
        for (LongPointData p : m.getLongSumData().getPoints()) {
          if (p.getValue() > 0) {
            out.put(p.getAttributes(), p.getValue());
          }
        }
      }
    }
    return out;
  }

  private static Attributes attrs(String reason, String source, String type, String org) {
    var b =
        Attributes.builder()
            .put(Sf2lokiMetrics.REASON, reason)
            .put(Sf2lokiMetrics.SOURCE, source)
            .put(Sf2lokiMetrics.EVENT_TYPE, type);
    if (org != null) {
      b.put(Sf2lokiMetrics.ORG, org);
    }
    return b.build();
  }

  private final List<LogEntry> mixed =
      List.of(
          real("a", "1", "pubsub", "LoginEventStream", "alpha"),
          real("b", "1", "eventlogfile", "API", "beta"),
          real("b", "2", "eventlogfile", "API", "beta"));

  @Test
  @DisplayName(
      "FEAT-10/OBS-37: on, a permanent rejection (PIPE-8) counts each entry under its own source,"
          + " event_type and org; the batch still commits")
  void feat10_permanentAttributed() throws Exception {
    run(
        DropAttribution.ON,
        new ScriptedSink().then(new ScriptedSink.Permanent("bad_request")),
        mixed);
    assertThat(dropped())
        .containsOnly(
            Map.entry(attrs("bad_request", "pubsub", "LoginEventStream", "alpha"), 1L),
            Map.entry(attrs("bad_request", "eventlogfile", "API", "beta"), 2L));
    assertThat(store.snapshot()).containsEntry("b", "2");
  }

  @Test
  @DisplayName(
      "FEAT-10/OBS-5: off (the default), the same rejection records exactly {reason} (no source,"
          + " event_type or org)")
  void feat10_offExactObs5Set() throws Exception {
    run(
        DropAttribution.OFF,
        new ScriptedSink().then(new ScriptedSink.Permanent("bad_request")),
        mixed);
    assertThat(dropped())
        .containsOnly(Map.entry(Attributes.of(Sf2lokiMetrics.REASON, "bad_request"), 3L));
  }

  @Test
  @DisplayName(
      "FEAT-10/OBS-37: on, the sink's per-entry drops are attributed by the entries it names; a"
          + " drop it counts without naming (SINK-19) is unknown; single-org entries carry no org")
  void obs37_sinkDropsAttributed() throws Exception {
    List<LogEntry> single =
        List.of(
            real("a", "1", "pubsub", "LoginEventStream", null),
            real("a", "2", "pubsub", "LoginEventStream", null),
            real("a", "3", "pubsub", "LoginEventStream", null));
    Sink sink =
        (Batch batch, boolean singleAttempt, StopSignal stop) ->
            new PushResult(
                100,
                Map.of("too_old", 2),
                Map.of("too_old", List.of(batch.realEntries().getFirst())));
    run(DropAttribution.ON, sink, single);
    assertThat(dropped())
        .containsOnly(
            Map.entry(attrs("too_old", "pubsub", "LoginEventStream", null), 1L),
            Map.entry(attrs("too_old", "unknown", "unknown", null), 1L));
    assertThat(dropped().keySet())
        .allSatisfy(a -> assertThat(a.get(AttributeKey.stringKey("org"))).isNull());
  }
}
