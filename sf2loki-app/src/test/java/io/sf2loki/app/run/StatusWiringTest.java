package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.app.health.StatusPage;
import io.sf2loki.app.health.StatusSnapshot;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusWiringTest {
  static final String YAML =
      "salesforce: {auth_mode: client_credentials, client_id: c, client_secret: s3cr3t-value,"
          + " login_url: 'https://example.my.salesforce.com'}\n"
          + "sources:\n"
          + "  pubsub:\n"
          + "    topics: [/event/ApiEventStream]\n"
          + "  eventlogfile: {enabled: true, event_types: [{name: Login}, {name: API}]}\n"
          + "  apexlog: {enabled: true}\n"
          + "sink: {loki: {url: 'http://user:pw@loki:3100/loki/api/v1/push'}}\n";

  @Test
  @DisplayName(
      "FEAT-3: the daemon's snapshot has one row per configured source named by its checkpoint"
          + " key, the position from the store (watermark of JSON values), role from readiness,"
          + " and no secrets")
  void feat3_rowsPerConfiguredSource(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(file, YAML);
    Sf2lokiConfig cfg = new ConfigLoader().load(file, Map.of());
    Readiness readiness = new Readiness();
    StatusWiring wiring = new StatusWiring(cfg, "9.9.9", readiness, new ActiveTerm());
    wiring.store(
        new InMemoryCheckpointStore(
            Map.of(
                "pubsub:/event/ApiEventStream", "AAAAAAAAAAE=",
                "eventlogfile:Login",
                    "{\"ids\": [], \"last_created\": \"2026-12-01T10:00:00.000+0000\"}",
                "apexlog", "2026-12-01T09:00:00.000+0000")));

    StatusSnapshot s = wiring.get();
    assertThat(s.role()).isEqualTo("starting");
    assertThat(s.epoch()).isEqualTo(-1);
    assertThat(s.version()).isEqualTo("9.9.9");
    assertThat(s.sources())
        .extracting(StatusSnapshot.Source::name, StatusSnapshot.Source::position)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("pubsub:/event/ApiEventStream", "AAAAAAAAAAE="),
            org.assertj.core.groups.Tuple.tuple(
                "eventlogfile:Login", "2026-12-01T10:00:00.000+0000"),
            org.assertj.core.groups.Tuple.tuple("eventlogfile:API", StatusWiring.UNKNOWN),
            org.assertj.core.groups.Tuple.tuple("apexlog", "2026-12-01T09:00:00.000+0000"));
    assertThat(s.lanes()).isEmpty(); // no term runs
    assertThat(s.governor().paused()).isFalse();

    readiness.set(Readiness.State.STANDBY);
    assertThat(wiring.get().role()).isEqualTo("standby");
    readiness.set(Readiness.State.READY);
    assertThat(wiring.get().role()).isEqualTo("leader");
    assertThat(StatusPage.json(wiring.get())).doesNotContain("s3cr3t").doesNotContain("pw@");
  }
}
