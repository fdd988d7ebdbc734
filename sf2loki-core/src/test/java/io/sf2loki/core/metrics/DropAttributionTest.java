package io.sf2loki.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** FEAT-10, OBS-37: grouping of dropped and abandoned entries by their labels. */
class DropAttributionTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private static final Attributes BASE = Attributes.of(Sf2lokiMetrics.REASON, "budget");

  @AfterEach
  void close() {
    provider.close();
  }

  static LogEntry entry(Map<String, String> labels) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:59:00Z"),
        labels,
        "x",
        Map.of(),
        new CheckpointToken("k", "v"));
  }

  private Map<Attributes, Long> points() {
    Map<Attributes, Long> out = new HashMap<>();
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_loki_entries_dropped")) {
        for (LongPointData p : m.getLongSumData().getPoints()) {
          out.put(p.getAttributes(), p.getValue());
        }
      }
    }
    return out;
  }

  private final List<LogEntry> entries =
      List.of(
          entry(Map.of("source", "pubsub", "event_type", "LoginEventStream", "org", "alpha")),
          entry(Map.of("source", "pubsub", "event_type", "LoginEventStream", "org", "alpha")),
          entry(Map.of("source", "eventlogfile", "event_type", "API", "org", "beta")),
          entry(Map.of("job", "sf2loki")),
          LogEntry.checkpointOnly(new CheckpointToken("k", "v9")));

  @Test
  @DisplayName(
      "FEAT-10/OBS-37: on, one series per source/event_type/org group of the real entries;"
          + " labels missing → unknown; checkpoint-only entries are not counted")
  void feat10_groupsByLabels() {
    DropAttribution.ON.add(metrics.lokiEntriesDropped, BASE, entries);
    assertThat(points())
        .containsOnly(
            Map.entry(
                BASE.toBuilder()
                    .put(Sf2lokiMetrics.SOURCE, "pubsub")
                    .put(Sf2lokiMetrics.EVENT_TYPE, "LoginEventStream")
                    .put(Sf2lokiMetrics.ORG, "alpha")
                    .build(),
                2L),
            Map.entry(
                BASE.toBuilder()
                    .put(Sf2lokiMetrics.SOURCE, "eventlogfile")
                    .put(Sf2lokiMetrics.EVENT_TYPE, "API")
                    .put(Sf2lokiMetrics.ORG, "beta")
                    .build(),
                1L),
            Map.entry(
                BASE.toBuilder()
                    .put(Sf2lokiMetrics.SOURCE, "unknown")
                    .put(Sf2lokiMetrics.EVENT_TYPE, "unknown")
                    .build(),
                1L));
  }

  @Test
  @DisplayName("FEAT-10/OBS-5: off, one recording with the OBS-5 attribute set only")
  void feat10_offKeepsObs5Set() {
    DropAttribution.OFF.add(metrics.lokiEntriesDropped, BASE, entries);
    assertThat(points()).containsOnly(Map.entry(BASE, 4L));
  }

  @Test
  @DisplayName(
      "OBS-37: counted entries beyond the identified ones (SINK-19) are attributed unknown; the"
          + " sum equals the count")
  void obs37_unidentifiedAreUnknown() {
    DropAttribution.ON.add(metrics.lokiEntriesDropped, BASE, 3, entries.subList(2, 3));
    assertThat(points())
        .containsOnly(
            Map.entry(
                BASE.toBuilder()
                    .put(Sf2lokiMetrics.SOURCE, "eventlogfile")
                    .put(Sf2lokiMetrics.EVENT_TYPE, "API")
                    .put(Sf2lokiMetrics.ORG, "beta")
                    .build(),
                1L),
            Map.entry(
                BASE.toBuilder()
                    .put(Sf2lokiMetrics.SOURCE, "unknown")
                    .put(Sf2lokiMetrics.EVENT_TYPE, "unknown")
                    .build(),
                2L));
  }

  @Test
  @DisplayName(
      "OBS-37: pre-grouped counts (a lane's batch in hand at the drain timeout) add to the base;"
          + " off, their sum under the base")
  void obs37_groups() {
    Map<Attributes, Long> groups = new HashMap<>();
    for (LogEntry e : entries.subList(0, 3)) {
      groups.merge(DropAttribution.ON.group(e), 1L, Long::sum);
    }
    assertThat(DropAttribution.OFF.group(entries.getFirst())).isEqualTo(Attributes.empty());
    DropAttribution.ON.addGroups(metrics.lokiEntriesDropped, BASE, groups);
    assertThat(points().values()).containsExactlyInAnyOrder(2L, 1L);
    Attributes other = Attributes.of(Sf2lokiMetrics.REASON, "permanent");
    DropAttribution.OFF.addGroups(metrics.lokiEntriesDropped, other, groups);
    assertThat(points()).containsEntry(other, 3L);
  }

  @Test
  @DisplayName("FEAT-10: a forOrg view (OBS-4) shares its base's attribution")
  void feat10_forOrgShares() {
    Sf2lokiMetrics on = new Sf2lokiMetrics(provider, "test", DropAttribution.ON);
    assertThat(on.forOrg("alpha").dropAttribution()).isSameAs(DropAttribution.ON);
    assertThat(metrics.dropAttribution()).isSameAs(DropAttribution.OFF);
  }
}
