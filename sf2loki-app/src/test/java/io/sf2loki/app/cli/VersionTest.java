package io.sf2loki.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class VersionTest {
  @Test
  @DisplayName("CLI-2/OBS-6: the version is the filtered Maven project version")
  void realBuildVersion() {
    assertThat(Version.get()).matches("\\d+\\.\\d+\\.\\d+.*").doesNotContain("${");
  }

  @Test
  void unfilteredResourceIsAPackagingBug() {
    var in =
        new ByteArrayInputStream("version=${project.version}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> Version.read(in)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Version.read(null)).isInstanceOf(IllegalStateException.class);
  }
}
