package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.demo.DemoScenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SourceOverlapTest {
  @Test
  @DisplayName(
      "SRC-23, CLI-4: LoginHistory objects and the ELF Login type feed one category: --check"
          + " fails with exit 2 naming it, unless sources.allow_overlap")
  void src23_overlapFailsCheckUnlessAllowed() throws Exception {
    try (DemoScenario s = DemoScenario.start(1, false, true, Instant.now())) {
      s.addLoginHistoryFeed(1, Instant.now());
      Path allowed = s.writeConfig(s.receiver().pushUrl(), s.dir().resolve("state.json"));
      String yaml = Files.readString(allowed);
      assertThat(yaml).contains("allow_overlap: true");
      Path denied = s.dir().resolve("denied.yaml");
      Files.writeString(denied, yaml.replace("allow_overlap: true", "allow_overlap: false"));

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      AppCommandActions actions =
          new AppCommandActions(
              Map.of(),
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(actions.run(denied, true)).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains("config check FAILED: overlapping sources")
          .contains("category 'login': eventlog_objects=LoginHistory, eventlogfile=Login");
      assertThat(actions.run(allowed, true)).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("config check OK");
    }
  }

  @Test
  @DisplayName(
      "SRC-23, PS-19: the overlap check looks at explicit topics after include/exclude: an"
          + " excluded LoginEventStream does not clash with the ELF Login type (regression)")
  void src23_filteredTopicsOnly() throws Exception {
    Path dir = Files.createTempDirectory("sf2loki-overlap-");
    String base =
        "salesforce: {auth_mode: client_credentials, client_id: c, client_secret: s,"
            + " login_url: 'https://example.my.salesforce.com'}\n"
            + "sources:\n"
            + "  pubsub:\n"
            + "    topics: [/event/LoginEventStream, /event/ApiEventStream]\n"
            + "%s"
            + "  eventlogfile: {enabled: true, event_types: [{name: Login}]}\n"
            + "sink: {loki: {url: 'http://loki:3100/loki/api/v1/push'}}\n";
    Path excluded = dir.resolve("excluded.yaml");
    Files.writeString(excluded, base.formatted("    exclude: ['*Login*']\n"));
    Path clashing = dir.resolve("clashing.yaml");
    Files.writeString(clashing, base.formatted(""));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AppCommandActions actions =
        new AppCommandActions(
            Map.of(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(actions.run(excluded, true)).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(actions.run(clashing, true)).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("category 'login': pubsub=/event/LoginEventStream, eventlogfile=Login");
  }

  @Test
  @DisplayName("CLI-4, STATE-1: --check refuses a state.file.path that is a directory (exit 2)")
  void stateFilePathThatIsADirectoryFailsCheck() throws Exception {
    Path dir = Files.createTempDirectory("sf2loki-state-dir-");
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(
        cfg,
        "salesforce: {auth_mode: client_credentials, client_id: c, client_secret: s,"
            + " login_url: 'https://example.my.salesforce.com'}\n"
            + "sources: {pubsub: {topics: [/event/LoginEventStream]}}\n"
            + "sink: {loki: {url: 'http://loki:3100/loki/api/v1/push'}}\n"
            + "state: {file: {path: '"
            + dir
            + "'}}\n");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AppCommandActions actions =
        new AppCommandActions(
            Map.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(actions.run(cfg, true)).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("state.file.path: " + dir + " is a directory");
  }
}
