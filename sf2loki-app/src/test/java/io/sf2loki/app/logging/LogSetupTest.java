package io.sf2loki.app.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.MDC;

class LogSetupTest {
  final LoggerContext ctx = new LoggerContext();
  final ByteArrayOutputStream out = new ByteArrayOutputStream();

  List<String> lines() {
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  @DisplayName("OBS-9: json lines carry timestamp, level, event, logger, then key/values")
  void jsonShape() throws Exception {
    LogSetup.configure(ctx, Level.INFO, LogSetup.Format.JSON, out);
    Logger log = ctx.getLogger("io.sf2loki.test");
    log.atWarn()
        .addKeyValue("topic", "/event/LoginEventStream")
        .addKeyValue("org", "prod")
        .log("stream stalled");
    MDC.put("term", "3");
    try {
      log.atInfo().log("with mdc");
    } finally {
      MDC.remove("term");
    }
    log.atError()
        .addKeyValue("error", "boom")
        .setCause(new IllegalStateException("bad"))
        .log("push failed");
    log.debug("hidden at info");

    List<String> lines = lines();
    assertThat(lines).hasSize(3);
    ObjectMapper om = new ObjectMapper();
    JsonNode first = om.readTree(lines.get(0));
    List<String> names = new ArrayList<>();
    first.fieldNames().forEachRemaining(names::add);
    assertThat(names).containsExactly("timestamp", "level", "event", "logger", "topic", "org");
    assertThat(first.get("timestamp").asText())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    assertThat(first.get("level").asText()).isEqualTo("warning");
    assertThat(first.get("event").asText()).isEqualTo("stream stalled");
    assertThat(first.get("logger").asText()).isEqualTo("io.sf2loki.test");
    assertThat(first.get("topic").asText()).isEqualTo("/event/LoginEventStream");
    assertThat(om.readTree(lines.get(1)).get("term").asText()).isEqualTo("3");
    assertThat(om.readTree(lines.get(1)).get("level").asText()).isEqualTo("info");
    JsonNode third = om.readTree(lines.get(2));
    assertThat(third.get("level").asText()).isEqualTo("error");
    assertThat(third.get("error").asText()).isEqualTo("boom");
    assertThat(third.get("exception").asText()).contains("IllegalStateException: bad");
  }

  @Test
  @DisplayName("OBS-9: json keeps an event whose key/values are java.time values (ISO-8601 text)")
  void jsonRendersTimeValues() throws Exception {
    LogSetup.configure(ctx, Level.INFO, LogSetup.Format.JSON, out);
    Logger log = ctx.getLogger("io.sf2loki.test");
    log.atInfo()
        .addKeyValue("row_timestamp", java.time.Instant.parse("2026-12-02T04:00:00.123456789Z"))
        .addKeyValue("wait", java.time.Duration.ofMillis(1500))
        .addKeyValue("at", java.time.OffsetDateTime.parse("2026-12-02T05:00:00+01:00"))
        .log("late row recovered by the revisit");

    List<String> lines = lines();
    assertThat(lines).hasSize(1);
    JsonNode n = new ObjectMapper().readTree(lines.get(0));
    assertThat(n.get("row_timestamp").asText()).isEqualTo("2026-12-02T04:00:00.123456789Z");
    assertThat(n.get("wait").asText()).isEqualTo("PT1.5S");
    assertThat(n.get("at").asText()).isEqualTo("2026-12-02T05:00+01:00");
  }

  @Test
  @DisplayName("OBS-9: logfmt carries the same fields as key=value on one line")
  void logfmt() {
    LogSetup.configure(ctx, Level.DEBUG, LogSetup.Format.LOGFMT, out);
    Logger log = ctx.getLogger("io.sf2loki.x");
    log.atDebug()
        .addKeyValue("file_id", "0AT1")
        .addKeyValue("note", "a \"b\"=c")
        .log("downloaded file");
    log.atError().setCause(new RuntimeException("x\ny")).log("failed");
    List<String> lines = lines();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0))
        .matches(
            "timestamp=\\S+Z level=debug event=\"downloaded file\" logger=io.sf2loki.x"
                + " file_id=0AT1 note=\"a \\\\\"b\\\\\"=c\"");
    assertThat(lines.get(1))
        .contains(" level=error event=failed ")
        .contains(" exception=\"java.lang.RuntimeException: x\\ny\\n");
  }

  @Test
  @DisplayName("OBS-9: log_level mapping (warn/warning, critical -> error)")
  void levels() {
    assertThat(SpecLevels.parse("WARN")).isEqualTo(Level.WARN);
    assertThat(SpecLevels.parse("warning")).isEqualTo(Level.WARN);
    assertThat(SpecLevels.parse("Critical")).isEqualTo(Level.ERROR);
    assertThat(SpecLevels.parse("debug")).isEqualTo(Level.DEBUG);
    assertThatThrownBy(() -> SpecLevels.parse("trace"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(LogSetup.Format.parse("JSON")).isEqualTo(LogSetup.Format.JSON);
    assertThatThrownBy(() -> LogSetup.Format.parse("xml"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("OBS-10: third-party loggers floored at WARN, or stricter configured level")
  void thirdPartyFloor() {
    LogSetup.configure(ctx, Level.DEBUG, LogSetup.Format.JSON, out);
    ctx.getLogger("io.grpc.netty.shaded.Foo").info("noise");
    ctx.getLogger("io.fabric8.kubernetes").warn("kept");
    ctx.getLogger("io.sf2loki.mine").debug("mine");
    assertThat(lines()).hasSize(2);
    assertThat(ctx.getLogger("software.amazon.awssdk").getEffectiveLevel()).isEqualTo(Level.WARN);
    LogSetup.configure(ctx, Level.ERROR, LogSetup.Format.JSON, out);
    assertThat(ctx.getLogger("io.netty.x").getEffectiveLevel()).isEqualTo(Level.ERROR);
  }

  @Test
  @DisplayName(
      "OBS-9, OBS-10: java.util.logging records (grpc-java, netty) are routed into SLF4J, so they"
          + " come out in the configured format instead of multi-line JUL text on stderr")
  void julIsRoutedToSlf4j() {
    LogSetup.routeJulToSlf4j();
    LoggerContext global = (LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();
    ch.qos.logback.classic.Logger target = global.getLogger("io.grpc.julbridge.test");
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
        new ch.qos.logback.core.read.ListAppender<>();
    captured.setContext(global);
    captured.start();
    target.addAppender(captured);
    try {
      java.util.logging.Logger.getLogger("io.grpc.julbridge.test")
          .log(
              java.util.logging.Level.WARNING,
              "Failed to resolve name",
              new java.net.UnknownHostException("pubsub.example.com"));
      java.util.logging.Logger.getLogger("io.grpc.julbridge.test").fine("too fine");
    } finally {
      target.detachAppender(captured);
    }
    assertThat(captured.list).hasSize(1);
    assertThat(captured.list.getFirst().getLevel()).isEqualTo(Level.WARN);
    assertThat(captured.list.getFirst().getFormattedMessage()).isEqualTo("Failed to resolve name");
    assertThat(captured.list.getFirst().getThrowableProxy().getClassName())
        .isEqualTo("java.net.UnknownHostException");
  }
}
