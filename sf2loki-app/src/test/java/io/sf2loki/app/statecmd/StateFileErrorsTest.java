package io.sf2loki.app.statecmd;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.cli.Cli;
import io.sf2loki.app.cli.HealthProbe;
import io.sf2loki.app.run.AppCommandActions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code state} commands on a file store whose file cannot be used, and on one that does not
 * exist yet (CLI-21, CLI-23): named, human errors, never Java exception text.
 */
class StateFileErrorsTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private Path config(Path state) throws Exception {
    return Files.writeString(
        dir.resolve("c.yaml"),
        """
        salesforce:
          login_url: "http://127.0.0.1:9"
          client_id: "x"
          auth_mode: client_credentials
          client_secret: "y"
        sink:
          loki:
            url: "http://127.0.0.1:9/loki/api/v1/push"
        state:
          file:
            path: "%s"
        """
            .formatted(state));
  }

  private int state(Path cfg, String... args) {
    out.reset();
    err.reset();
    List<String> a = new ArrayList<>(List.of("state"));
    a.addAll(List.of(args));
    a.add("--config");
    a.add(cfg.toString());
    PrintWriter w = new PrintWriter(err, true, StandardCharsets.UTF_8);
    return new Cli(
            new AppCommandActions(
                Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)),
            w,
            w,
            new HealthProbe())
        .execute(a.toArray(String[]::new));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** No Java exception class or doubled path in an operator-facing message. */
  private void assertHuman(String text, Path path) {
    assertThat(text).doesNotContain("Exception").doesNotContain(path + ": " + path);
    assertThat(text.lines().count()).as(text).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "CLI-23: state show on a state file that does not exist says so (path) and that no"
          + " checkpoints have been stored yet, exit 0")
  void cli23_showWithoutStateFile() throws Exception {
    Path state = dir.resolve("sub").resolve("state.json");
    Path cfg = config(state);
    assertThat(state(cfg, "show")).isZero();
    assertThat(out())
        .isEqualTo(
            "no checkpoints have been stored yet: the state file "
                + state
                + " does not exist (the daemon creates it on its first commit)\n");
    assertThat(state(cfg, "show", "--key", "pubsub:*")).isZero();
    assertThat(out()).contains("does not exist").doesNotContain("(no checkpoints match)");
    assertThat(Files.exists(state)).as("show never creates the file").isFalse();
  }

  @Test
  @DisplayName(
      "CLI-21: set, delete and import into a state file whose directory does not exist exit 2"
          + " naming the directory, and create nothing")
  void cli21_missingDirectoryIsNotCreated() throws Exception {
    Path missing = dir.resolve("no-such-dir");
    Path state = missing.resolve("state.json");
    Path cfg = config(state);
    Path imp = Files.writeString(dir.resolve("import.json"), "{\"apexlog\": \"x\"}");
    for (String[] cmd :
        new String[][] {
          {"set", "apexlog", "2024-05-01T10:00:00.000+0000"},
          {"delete", "apexlog"},
          {"import", imp.toString()}
        }) {
      assertThat(state(cfg, cmd)).as(String.join(" ", cmd) + ": " + err()).isEqualTo(2);
      assertThat(err())
          .startsWith("sf2loki: cannot write the state file " + state)
          .contains(
              "its directory " + missing + " does not exist; create it or fix state.file.path");
      assertHuman(err(), state);
      err.reset();
    }
    assertThat(Files.exists(missing)).isFalse();
  }

  @Test
  @DisplayName(
      "CLI-21: a state file whose parent is a regular file: show, set and export print which"
          + " file, what is wrong and what to do, no exception text, exit 2")
  void cli21_parentIsNotADirectory() throws Exception {
    Path notDir = Files.writeString(dir.resolve("afile"), "x");
    Path state = notDir.resolve("state.json");
    Path cfg = config(state);
    for (String[] cmd :
        new String[][] {{"show"}, {"set", "apexlog", "2024-05-01T10:00:00.000+0000"}, {"export"}}) {
      assertThat(state(cfg, cmd)).as(String.join(" ", cmd) + ": " + err()).isEqualTo(2);
      assertThat(err())
          .startsWith("sf2loki: cannot ")
          .contains("the state file " + state)
          .contains(notDir + " is a file, not a directory")
          .contains("state.file.path");
      assertHuman(err(), state);
    }
    assertThat(Files.readString(notDir)).isEqualTo("x");
  }

  @Test
  @DisplayName("CLI-21: a state file path that is a directory is refused naming the key, exit 2")
  void cli21_stateFileIsADirectory() throws Exception {
    Path state = Files.createDirectories(dir.resolve("state.json"));
    Path cfg = config(state);
    assertThat(state(cfg, "show")).isEqualTo(2);
    assertThat(err()).contains("state.file.path").contains(state + " is a directory");
    assertThat(state(cfg, "delete", "apexlog")).isEqualTo(2);
    assertThat(err()).contains(state + " is a directory");
  }

  @Test
  @DisplayName(
      "CLI-21: state import of a missing file and state export into a missing directory name the"
          + " file and the problem, exit 2")
  void cli21_importAndExportFiles() throws Exception {
    Path cfg = config(dir.resolve("state.json"));
    Path missing = dir.resolve("nope.json");
    assertThat(state(cfg, "import", missing.toString())).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "sf2loki: cannot read the import file "
                + missing
                + ": it does not exist; check the path\n");
    Path target = dir.resolve("no-such-dir").resolve("export.json");
    assertThat(state(cfg, "export", "--out", target.toString())).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "sf2loki: cannot write the export file "
                + target
                + ": its directory "
                + target.getParent()
                + " does not exist; create it or choose another path\n");
    assertThat(state(cfg, "import", dir.toString())).isEqualTo(2);
    assertThat(err()).contains("the import file " + dir).contains("is a directory");
    assertHuman(err(), dir);
  }
}
