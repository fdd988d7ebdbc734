package io.sf2loki.app.objects;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.sf2loki.app.e2e.support.LogCapture;
import io.sf2loki.core.status.Redaction;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.objects.EventLogObjectSource.Outcome;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * OBJ-12's Big Object hint is classified on the whole error body (SRC-27), not the excerpt; the
 * failure log masks secrets (OBS-34).
 */
class ObjectErrorHintTest {
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

  @Test
  @DisplayName(
      "SRC-27, OBJ-12: BIG_OBJECT_UNSUPPORTED_OPERATION after a 700-character message (beyond the"
          + " 500-character excerpt) still gives the big_object hint")
  void hintFromTheWholeBody() throws Exception {
    h.org
        .objects()
        .addSeries("LoginHistory", ObjectHarness.NOW.minusSeconds(600), Duration.ofSeconds(1), 3);
    EventLogObjectSource src =
        h.source(
            ObjectSettings.defaults("LoginHistory", false)
                .withTimestampField("LoginTime")
                .withSettleWindow(Duration.ZERO));
    h.org
        .faults()
        .add(
            SimEndpoint.QUERY,
            Fault.salesforceError(400, "BIG_OBJECT_UNSUPPORTED_OPERATION", "m".repeat(700)));
    try (LogCapture logs = LogCapture.of(EventLogObjectSource.class)) {
      assertThat(h.poll(src, "LoginHistory").outcome()).isEqualTo(Outcome.FAILED);
      assertThat(logs.events(Level.WARN, "object poll failed; retried next poll"))
          .singleElement()
          .satisfies(
              e ->
                  assertThat(LogCapture.keyValues(e))
                      .containsEntry("hint", "set big_object: true for this object"));
    }
  }

  @Test
  @DisplayName(
      "OBS-34, DOC-3: an object poll failure's WARN shows Salesforce's error with the reporter's"
          + " configured secret masked, although the org echoed it")
  void obs34_pollFailureLogMasksSecrets() throws Exception {
    EventLogObjectSource src =
        h.source(
            ObjectSettings.defaults("LoginHistory", false)
                .withTimestampField("LoginTime")
                .withSettleWindow(Duration.ZERO));
    src.reportTo(new SourceStatusBoard(h.time.wall(), new Redaction(List.of("s3cr3t-obj"))));
    h.org
        .faults()
        .add(SimEndpoint.QUERY, Fault.salesforceError(500, "UNKNOWN_EXCEPTION", "echo s3cr3t-obj"));
    try (LogCapture logs = LogCapture.of(EventLogObjectSource.class)) {
      assertThat(h.poll(src, "LoginHistory").outcome()).isEqualTo(Outcome.FAILED);
      assertThat(logs.events(Level.WARN, "object poll failed; retried next poll"))
          .singleElement()
          .satisfies(
              e ->
                  assertThat(String.valueOf(LogCapture.keyValues(e).get("error")))
                      .contains("echo ***")
                      .doesNotContain("s3cr3t-obj"));
    }
  }
}
