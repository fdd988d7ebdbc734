package io.sf2loki.app.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.transform.TransformAction;
import io.sf2loki.core.transform.TransformChain;
import io.sf2loki.core.transform.TransformSpec;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.source.SourceTransforms;
import io.sf2loki.sim.org.SimObjectRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code sources.eventlog_objects.transforms} against the simulated org (SPEC XF-1, XF-8). */
class ObjectTransformsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = ObjectHarness.NOW;

  private ObjectHarness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new ObjectHarness();
    h.org.objects().defineObject("LoginHistory", "LoginTime");
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private static ObjectSettings loginHistory() {
    return ObjectSettings.defaults("LoginHistory", false)
        .withTimestampField("LoginTime")
        .withSettleWindow(Duration.ZERO);
  }

  @Test
  @DisplayName(
      "XF-8, XF-1, XF-6, XF-14: the record key and watermark come from the original Id and"
          + " timestamp although rules hash both; a redacted timestamp only moves the entry"
          + " timestamp to the fallback; dropped rows are counted and never hold the cursor back")
  void xf8_keysAndWatermarkUseOriginalValues() throws Exception {
    List<SimObjectRecord> recs =
        h.org
            .objects()
            .addSeries("LoginHistory", NOW.minusSeconds(600), Duration.ofSeconds(10), 30);
    SimObjectRecord last = recs.get(recs.size() - 1);
    TransformChain chain =
        TransformChain.compile(
            List.of(
                TransformSpec.of(TransformAction.HASH, "Id", "LoginTime"),
                TransformSpec.dropRow(Map.of("Status", "Failed")).named("failed")),
            "s");
    SourceTransforms t = new SourceTransforms(chain, EventLogObjectSource.SOURCE, h.metrics);
    EventLogObjectSource src = h.source(t::apply, loginHistory());

    h.poll(src, "LoginHistory");

    long failed = recs.stream().filter(r -> "Failed".equals(r.values().get("Status"))).count();
    assertThat(failed).isPositive();
    List<LogEntry> real = h.real();
    assertThat(real).hasSize((int) (recs.size() - failed));
    Set<String> rawIds = recs.stream().map(SimObjectRecord::id).collect(Collectors.toSet());
    for (LogEntry e : real) {
      JsonNode line = JSON.readTree(e.line());
      assertThat(line.get("Id").asText()).matches("[0-9a-f]{16}").isNotIn(rawIds);
      assertThat(line.get("LoginTime").asText()).matches("[0-9a-f]{16}");
      // SRC-12: no parsable timestamp field left, so the entry takes the watermark fallback
      assertThat(e.timestamp()).isBeforeOrEqualTo(last.timestamp());
    }
    assertThat(
            h.counter(
                "sf2loki_rows_filtered",
                Attributes.of(
                    Sf2lokiMetrics.SOURCE, "eventlog_objects", Sf2lokiMetrics.RULE, "failed")))
        .isEqualTo(failed);
    JsonNode cp = JSON.readTree(h.store.load("eventlog_objects:LoginHistory").orElseThrow());
    assertThat(cp.get("last_ts").asText()).startsWith(last.timestamp().toString().substring(0, 19));
    assertThat(cp.get("ids").get(0).asText()).isEqualTo(last.id());

    h.poll(src, "LoginHistory"); // dedup by the original keys: nothing is sent again
    assertThat(h.real()).hasSize(real.size());
  }
}
