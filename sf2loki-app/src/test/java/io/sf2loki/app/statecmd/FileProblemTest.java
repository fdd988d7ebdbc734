package io.sf2loki.app.statecmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The wording of {@link FileProblem} for failures the root-run tests cannot provoke (CLI-21). */
class FileProblemTest {
  @Test
  @DisplayName(
      "CLI-21: permission denied names the file, the runtime uid and the mode to grant (the"
          + " tests run as root, so the case is checked on the wording)")
  void cli21_permissionDeniedWording() {
    Path p = Path.of("/var/lib/sf2loki/state.json");
    String text =
        FileProblem.describe(
            FileProblem.Access.READ,
            "the state file",
            p,
            new AccessDeniedException(p.toString()),
            "state.file.path");
    assertThat(text)
        .isEqualTo(
            "cannot read the state file /var/lib/sf2loki/state.json: permission denied; run the"
                + " command as the daemon's user (uid 10001 in the image) or make the file"
                + " readable and writable by it (file mode 0660, directory mode 0770)");
  }
}
