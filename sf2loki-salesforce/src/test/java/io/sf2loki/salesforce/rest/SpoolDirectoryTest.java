package io.sf2loki.salesforce.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.testing.LogRecorder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolDirectoryTest {
  @TempDir Path tmp;

  @Test
  void elf16_startupDeletesDirectoriesOfDeadProcessesOnly() throws Exception {
    Path dead = Files.createDirectories(tmp.resolve("sf2loki-spool-111"));
    Files.writeString(dead.resolve("body-1.spool"), "x");
    Path alive = Files.createDirectories(tmp.resolve("sf2loki-spool-222"));
    Path own = Files.createDirectories(tmp.resolve("sf2loki-spool-333"));
    Path other = Files.createDirectories(tmp.resolve("sf2loki-spool-notapid"));
    Path unrelated = Files.createDirectories(tmp.resolve("something-else-111"));

    SpoolDirectory dir = new SpoolDirectory(tmp, 333, pid -> pid == 222);
    assertThat(dir.deleteStale()).isEqualTo(1);

    assertThat(dead).doesNotExist();
    assertThat(alive).exists();
    assertThat(own).exists();
    assertThat(other).exists();
    assertThat(unrelated).exists();
  }

  @Test
  void elf16_directoryIsPerProcessAndRemovedOnClose() throws Exception {
    SpoolDirectory dir = new SpoolDirectory(tmp, 77, pid -> true);
    assertThat(dir.directory()).isEqualTo(tmp.resolve("sf2loki-spool-77"));
    Path f = dir.newFile();
    assertThat(f.getParent()).isEqualTo(dir.directory());
    dir.close();
    assertThat(dir.directory()).doesNotExist();
    dir.close();
  }

  @Test
  void forCurrentProcessUsesTmpdirAndOwnPid() {
    SpoolDirectory dir = SpoolDirectory.forCurrentProcess();
    assertThat(dir.directory().getFileName().toString())
        .isEqualTo("sf2loki-spool-" + ProcessHandle.current().pid());
  }

  @Test
  @DisplayName(
      "OBS-34: a failed stale-directory or own-directory delete logs its error with URL"
          + " user-info and token parameters masked")
  void obs34_deleteFailureLogMasksCredentials() throws Exception {
    Files.createDirectories(tmp.resolve("sf2loki-spool-111"));
    SpoolDirectory dir =
        new SpoolDirectory(
            tmp,
            333,
            pid -> false,
            root -> {
              throw new IOException(
                  "mount https://svc:pa55word@nfs.example/x?token=tok3n refused " + root);
            });
    try (LogRecorder logs = LogRecorder.of(SpoolDirectory.class)) {
      assertThat(dir.deleteStale()).isZero();
      dir.close();
      assertThat(logs.failures())
          .hasSize(2)
          .allSatisfy(
              l ->
                  assertThat(l)
                      .contains(
                          "error=java.io.IOException: mount https://***@nfs.example/x?token=***")
                      .doesNotContain("pa55word")
                      .doesNotContain("tok3n"));
    }
  }
}
