package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CommitGaugesTest {
  private static final Instant NOW = Instant.parse("2024-05-01T12:00:00.500Z");
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final CommitGauges gauges = new CommitGauges(metrics, InstantSource.fixed(NOW));

  @AfterEach
  void close() {
    metrics.close();
    provider.close();
  }

  private static Attributes elf(String type) {
    return Attributes.of(Sf2lokiMetrics.SOURCE, "eventlogfile", Sf2lokiMetrics.OBJECT, type);
  }

  private static double seconds(String iso) {
    Instant i = Instant.parse(iso);
    return i.getEpochSecond() + i.getNano() / 1e9;
  }

  /** The exported watermark points: object → value. */
  private Map<String, Double> exported() {
    Map<String, Double> out = new LinkedHashMap<>();
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_watermark_timestamp_seconds")) {
        for (var p : m.getDoubleGaugeData().getPoints()) {
          assertThat(p.getAttributes().get(Sf2lokiMetrics.SOURCE)).isEqualTo("eventlogfile");
          assertThat(p.getAttributes().size()).isEqualTo(2);
          out.put(p.getAttributes().get(Sf2lokiMetrics.OBJECT), p.getValue());
        }
      }
    }
    return out;
  }

  @Test
  @DisplayName(
      "PIPE-10, SRC-15: after a commit of eventlogfile:<T> the watermark gauge"
          + " {source=eventlogfile,object=<T>} equals the value's last_created")
  void pipe10_watermarkIsLastCreated() {
    gauges.committed(
        Map.of(
            "eventlogfile:Login",
            "{\"ids\": [[\"0AT000000000001AAA\", \"2024-05-01T10:00:00.000+0000\"],"
                + " [\"0AT000000000002AAA\", \"2024-05-01T11:05:30.250+0000\"]],"
                + " \"last_created\": \"2024-05-01T11:05:30.250+0000\"}",
            "eventlogfile:API",
            "{\"ids\": [], \"last_created\": \"2024-04-30T00:00:00Z\"}"));

    assertThat(metrics.watermarkTimestampSeconds.get(elf("Login")))
        .isEqualTo(seconds("2024-05-01T11:05:30.250Z"));
    assertThat(exported())
        .containsOnly(
            Map.entry("Login", seconds("2024-05-01T11:05:30.250Z")),
            Map.entry("API", seconds("2024-04-30T00:00:00Z")));

    // a later commit moves it; a legacy bare timestamp value is read too
    gauges.committed(Map.of("eventlogfile:Login", "2024-05-02T00:00:00.000+0000"));
    assertThat(exported()).containsEntry("Login", seconds("2024-05-02T00:00:00Z"));
  }

  @Test
  @DisplayName(
      "PIPE-10: a value that cannot be parsed leaves the gauge unchanged and never fails the"
          + " commit; other keys are ignored")
  void pipe10_unparseableLeavesGaugeUnchanged() {
    gauges.committed(
        Map.of(
            "eventlogfile:Login",
            "{\"ids\": [], \"last_created\": \"2024-05-01T10:00:00.000+0000\"}"));
    double before = seconds("2024-05-01T10:00:00Z");

    for (String bad :
        new String[] {
          "not json and not a timestamp",
          "{\"ids\": [], \"last_created\": \"yesterday\"}",
          "{\"ids\": []}",
          "{\"ids\": [], \"last_created\": 12}",
          "[1, 2]",
          ""
        }) {
      gauges.committed(Map.of("eventlogfile:Login", bad));
      assertThat(metrics.watermarkTimestampSeconds.get(elf("Login"))).as(bad).isEqualTo(before);
    }
    // an unparseable first value creates no series
    gauges.committed(Map.of("eventlogfile:API", "garbage"));
    // keys of other owners do not touch the eventlogfile series
    gauges.committed(Map.of("egress:budget", "{\"date\": \"2024-05-01\", \"bytes\": 5}"));
    assertThat(exported()).containsOnly(Map.entry("Login", before));
  }

  @Test
  @DisplayName(
      "PIPE-10: eventlog_objects:<Obj> and apexlog commits set the gauge from last_ts with"
          + " source eventlog_objects / apexlog")
  void pipe10_objectsAndApexlogWatermarks() {
    gauges.committed(
        Map.of(
            "eventlog_objects:LoginHistory",
            "{\"ids\": [\"0Ya000000000001AAA\"], \"last_ts\": \"2024-05-01T10:00:00.000+0000\"}",
            "apexlog",
            "{\"ids\": [\"07L000000000001AAA\"], \"last_ts\": \"2024-05-01T09:30:00.000+0000\"}"));
    assertThat(
            metrics.watermarkTimestampSeconds.get(
                Attributes.of(
                    Sf2lokiMetrics.SOURCE,
                    "eventlog_objects",
                    Sf2lokiMetrics.OBJECT,
                    "LoginHistory")))
        .isEqualTo(seconds("2024-05-01T10:00:00Z"));
    assertThat(
            metrics.watermarkTimestampSeconds.get(
                Attributes.of(Sf2lokiMetrics.SOURCE, "apexlog", Sf2lokiMetrics.OBJECT, "apexlog")))
        .isEqualTo(seconds("2024-05-01T09:30:00Z"));
  }

  @Test
  @DisplayName(
      "PIPE-10: a pubsub:<topic> commit sets sf2loki_last_replay_commit_timestamp_seconds{topic}"
          + " to now and no watermark series")
  void pipe10_replayCommitTimestampIsNow() {
    gauges.committed(Map.of("pubsub:/event/LoginEventStream", "AAAAAAAAAAE="));
    Attributes topic = Attributes.of(Sf2lokiMetrics.TOPIC, "/event/LoginEventStream");
    assertThat(metrics.lastReplayCommitTimestampSeconds.get(topic)).isEqualTo(1714564800.5);
    assertThat(exported()).isEmpty();
    double exportedValue = Double.NaN;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_last_replay_commit_timestamp_seconds")) {
        var p = m.getDoubleGaugeData().getPoints().iterator().next();
        assertThat(p.getAttributes()).isEqualTo(topic);
        exportedValue = p.getValue();
      }
    }
    assertThat(exportedValue).isEqualTo(1714564800.5);
  }

  @Test
  @DisplayName(
      "PIPE-10, ORG-8: a multi-org key's org=<name>: prefix is stripped and exported as attribute"
          + " org; egress:budget sets no gauge")
  void pipe10_orgPrefixBecomesAttribute() {
    gauges.committed(
        Map.of(
            "org=eu:eventlogfile:Login",
            "{\"ids\": [], \"last_created\": \"2024-05-01T10:00:00.000+0000\"}",
            "org=eu:pubsub:/event/LoginEventStream",
            "AAA=",
            "egress:budget",
            "{\"date\": \"2024-05-01\", \"bytes\": 1}"));
    Attributes elfEu = elf("Login").toBuilder().put(Sf2lokiMetrics.ORG, "eu").build();
    assertThat(metrics.watermarkTimestampSeconds.get(elfEu))
        .isEqualTo(seconds("2024-05-01T10:00:00Z"));
    assertThat(metrics.watermarkTimestampSeconds.get(elf("Login"))).isNaN();
    Attributes topic =
        Attributes.of(Sf2lokiMetrics.TOPIC, "/event/LoginEventStream", Sf2lokiMetrics.ORG, "eu");
    assertThat(metrics.lastReplayCommitTimestampSeconds.get(topic))
        .isEqualTo(NOW.toEpochMilli() / 1000.0);
  }
}
