package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** A missing deployment tool fails the build under CI and skips the test only locally. */
class ExternalToolTest {
  private static final Map<String, String> EMPTY_PATH = Map.of("PATH", "/nonexistent-dir");

  @Test
  @DisplayName("DEP-9: promtool missing under CI (CI set) fails the test instead of skipping it")
  void dep9_missingToolFailsUnderCi() {
    Map<String, String> ci = Map.of("PATH", "/nonexistent-dir", "CI", "true");
    assertThatThrownBy(() -> ExternalTool.require("promtool", "prometheus", ci))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("CI is set")
        .hasMessageContaining("apt-get install -y --no-install-recommends prometheus");
  }

  @Test
  @DisplayName("DEP-9: promtool missing locally (CI unset or empty) skips with the install hint")
  void dep9_missingToolSkipsLocally() {
    assertThatThrownBy(() -> ExternalTool.require("promtool", "prometheus", EMPTY_PATH))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("skipped locally")
        .hasMessageContaining("prometheus");
    Map<String, String> blankCi = Map.of("PATH", "/nonexistent-dir", "CI", "");
    assertThatThrownBy(() -> ExternalTool.require("promtool", "prometheus", blankCi))
        .isInstanceOf(TestAbortedException.class);
  }

  @Test
  @DisplayName("DEP-9: a tool on PATH is found")
  void dep9_toolOnPathFound() {
    ExternalTool sh = ExternalTool.require("sh", "dash", Map.of("PATH", "/nonexistent-dir:/bin"));
    assertThat(sh.path().toString()).isEqualTo("/bin/sh");
  }
}
