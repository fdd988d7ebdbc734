package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboards of the monitoring pack (SPEC DEP-8): importable anywhere (datasource
 * template variables, no hard-coded data source UIDs) and covering what each dashboard promises.
 */
class MonitoringDashboardsTest {
  private final MonitoringPack pack = new MonitoringPack();

  private Map<String, JsonNode> dashboardsByUid() {
    Map<String, JsonNode> out = new HashMap<>();
    for (Path f : pack.dashboardFiles()) {
      JsonNode d = MonitoringPack.read(MonitoringPack.JSON, f);
      out.put(d.path("uid").asText(), d);
    }
    return out;
  }

  /** Every object under a {@code datasource} key, anywhere in the tree. */
  private static void datasourceRefs(JsonNode n, List<JsonNode> out) {
    if (n.isObject()) {
      n.fields()
          .forEachRemaining(
              e -> {
                if (e.getKey().equals("datasource")) {
                  out.add(e.getValue());
                }
                datasourceRefs(e.getValue(), out);
              });
    } else if (n.isArray()) {
      n.forEach(c -> datasourceRefs(c, out));
    }
  }

  @Test
  @DisplayName(
      "DEP-8: every data source reference is the ds_prom or ds_loki template variable (no"
          + " hard-coded UIDs), and each dashboard declares exactly the variables it uses")
  void dep8_datasourceVariablesOnly() {
    assertThat(pack.dashboardFiles()).hasSize(7);
    for (JsonNode d : dashboardsByUid().values()) {
      String title = d.path("title").asText();
      List<JsonNode> refs = new ArrayList<>();
      datasourceRefs(d, refs);
      assertThat(refs).as(title).isNotEmpty();
      Set<String> used = new HashSet<>();
      for (JsonNode r : refs) {
        String uid = r.path("uid").asText();
        String type = r.path("type").asText();
        assertThat(Map.of("type", type, "uid", uid))
            .as("%s data source reference %s", title, r)
            .isIn(
                Map.of("type", "prometheus", "uid", "${ds_prom}"),
                Map.of("type", "loki", "uid", "${ds_loki}"));
        used.add(uid.substring(2, uid.length() - 1));
      }
      Set<String> declared = new HashSet<>();
      for (JsonNode v : d.path("templating").path("list")) {
        if (v.path("type").asText().equals("datasource")) {
          declared.add(v.path("name").asText());
          assertThat(v.path("query").asText())
              .isEqualTo(v.path("name").asText().equals("ds_prom") ? "prometheus" : "loki");
          assertThat(v.path("current").isEmpty())
              .as("%s: no pre-selected data source", title)
              .isTrue();
        }
      }
      assertThat(declared).as(title).isEqualTo(used).isNotEmpty();
    }
  }

  @Test
  @DisplayName(
      "DEP-8: overview, sources, sink & lanes, HA, security-access, api-integration and"
          + " apex-performance dashboards: unique panel ids, a grid 24 wide, every panel queries"
          + " something, and each covers its promised signals")
  void dep8_dashboardsCoverTheirSignals() {
    Map<String, JsonNode> byUid = dashboardsByUid();
    assertThat(byUid)
        .containsOnlyKeys(
            "sf2loki-overview",
            "sf2loki-sources",
            "sf2loki-sink-lanes",
            "sf2loki-ha",
            "sf2loki-security-access",
            "sf2loki-api-integration",
            "sf2loki-apex-performance");
    Map<String, List<String>> promised =
        Map.of(
            "sf2loki-overview",
            List.of(
                "sf2loki_events_ingested_total",
                "sf2loki_ingest_lag_seconds_bucket",
                "sf2loki_loki_push_total",
                "sf2loki_loki_entries_dropped_total",
                "{job=\"sf2loki\"}"),
            "sf2loki-sources",
            List.of(
                "sf2loki_source_last_success_timestamp_seconds",
                "sf2loki_last_replay_commit_timestamp_seconds",
                "sf2loki_watermark_timestamp_seconds",
                "sf2loki_soql_poll_errors_total",
                "sf2loki_decode_errors_total",
                "sf2loki_eventlogfile_download_errors_total",
                "sf2loki_auth_errors_total",
                "sf2loki_salesforce_limit_remaining"),
            "sf2loki-sink-lanes",
            List.of(
                "sf2loki_queue_depth",
                "outcome!=\"success\"",
                "sf2loki_egress_budget_used_bytes",
                "sf2loki_egress_paused",
                "sf2loki_loki_entries_restamped_total",
                "sf2loki_pipeline_entries_abandoned_total"),
            "sf2loki-ha",
            List.of(
                "sf2loki_leader{", "sf2loki_leader_acquisitions_total", "changes(sf2loki_leader"),
            "sf2loki-security-access",
            List.of(
                "event_type=\"LoginEventStream\"",
                "event_type=\"Login\"",
                "Country=\"Country\"",
                "SessionHijackingEvent",
                "event_type=\"SetupAuditTrail\""),
            "sf2loki-api-integration",
            List.of(
                "event_type=\"RestApi\"", "event_type=\"BulkApi\"", "API_FAMILY", "ApiEventStream"),
            "sf2loki-apex-performance",
            List.of("unwrap TIME", "unwrap EXEC_TIME", "event_type=\"ApexUnexpectedException\""));
    for (var e : byUid.entrySet()) {
      JsonNode d = e.getValue();
      Set<Integer> ids = new HashSet<>();
      StringBuilder all = new StringBuilder();
      for (JsonNode p : d.path("panels")) {
        assertThat(ids.add(p.path("id").asInt())).as("unique panel id %s", p.path("id")).isTrue();
        JsonNode g = p.path("gridPos");
        assertThat(g.path("x").asInt() + g.path("w").asInt()).isLessThanOrEqualTo(24);
        if (p.path("type").asText().equals("row")) {
          continue;
        }
        assertThat(p.path("description").asText()).as(p.path("title").asText()).isNotBlank();
        assertThat(p.path("targets")).as(p.path("title").asText()).isNotEmpty();
        for (JsonNode t : p.path("targets")) {
          assertThat(t.path("expr").asText()).as(p.path("title").asText()).isNotBlank();
          all.append(t.path("expr").asText()).append('\n');
        }
      }
      for (String signal : promised.get(e.getKey())) {
        assertThat(all.toString()).as("%s queries %s", e.getKey(), signal).contains(signal);
      }
      if (e.getKey().equals("sf2loki-apex-performance")) {
        assertThat(all.toString())
            .as("Apex latency uses TIME, not RUN_TIME")
            .doesNotContain("RUN_TIME");
      }
    }
  }
}
