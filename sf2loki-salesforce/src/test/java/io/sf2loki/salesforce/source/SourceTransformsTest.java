package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.transform.TransformAction;
import io.sf2loki.core.transform.TransformChain;
import io.sf2loki.core.transform.TransformSpec;
import io.sf2loki.salesforce.rest.RestTestSupport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SourceTransformsTest {
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();

  private static Map<String, Object> row(String status, String ip) {
    Map<String, Object> m = new HashMap<>();
    m.put("STATUS", status);
    m.put("CLIENT_IP", ip);
    return m;
  }

  private long filtered(String rule) {
    return probe
        .collect()
        .counter(
            "sf2loki_rows_filtered",
            Attributes.of(Sf2lokiMetrics.SOURCE, "eventlogfile", Sf2lokiMetrics.RULE, rule));
  }

  @Test
  @DisplayName(
      "XF-6, XF-7, XF-14: each drop counts sf2loki_rows_filtered{source, rule} (name or"
          + " action-index); the first drop per rule logs one INFO, later ones DEBUG")
  void xf14_dropsAreCountedAndLogged() {
    TransformChain chain =
        TransformChain.compile(
            List.of(
                TransformSpec.of(TransformAction.MASK, "CLIENT_IP"),
                TransformSpec.dropRow(Map.of("STATUS", "F*")).named("failed"),
                TransformSpec.dropRow(Map.of("CLIENT_IP", "10.0.0.x"))),
            "");
    SourceTransforms t = new SourceTransforms(chain, "eventlogfile", probe.metrics);
    Logger logger = (Logger) LoggerFactory.getLogger(SourceTransforms.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    Level before = logger.getLevel();
    logger.setLevel(Level.DEBUG);
    logger.addAppender(appender);
    try {
      Map<String, Object> kept = row("S", "192.0.2.7");
      assertThat(t.apply(kept)).isTrue();
      assertThat(kept).containsEntry("CLIENT_IP", "192.0.2.x");
      assertThat(t.apply(row("F", "192.0.2.8"))).isFalse();
      assertThat(t.apply(row("Failed", "192.0.2.9"))).isFalse();
      assertThat(t.apply(row("S", "10.0.0.1"))).isFalse(); // masked to 10.0.0.x, then dropped
    } finally {
      logger.detachAppender(appender);
      logger.setLevel(before);
    }
    assertThat(filtered("failed")).isEqualTo(2);
    assertThat(filtered("drop_row-2")).isEqualTo(1);
    assertThat(t.dropRowRuleNames()).containsExactly("failed", "drop_row-2");
    List<ILoggingEvent> infos =
        appender.list.stream().filter(e -> e.getLevel() == Level.INFO).toList();
    assertThat(infos).hasSize(2);
    assertThat(infos.get(0).getFormattedMessage()).contains("sf2loki_rows_filtered");
    assertThat(infos.get(0).getKeyValuePairs().toString())
        .contains("eventlogfile")
        .contains("failed");
    assertThat(appender.list.stream().filter(e -> e.getLevel() == Level.DEBUG)).hasSize(1);
  }

  @Test
  @DisplayName("XF-1: without rules every record is kept unchanged and nothing is counted")
  void xf1_noneKeepsEverything() {
    Map<String, Object> r = row("F", "192.0.2.1");
    assertThat(SourceTransforms.NONE.apply(r)).isTrue();
    assertThat(SourceTransforms.NONE.isEmpty()).isTrue();
    assertThat(r).isEqualTo(row("F", "192.0.2.1"));
  }
}
