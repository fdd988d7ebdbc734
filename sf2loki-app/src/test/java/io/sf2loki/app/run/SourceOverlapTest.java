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
}
