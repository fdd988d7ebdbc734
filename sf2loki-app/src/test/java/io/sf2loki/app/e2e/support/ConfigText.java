package io.sf2loki.app.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Edits of the YAML text written by {@code DemoScenario.writeConfig}: every edit replaces one exact
 * fragment that must occur exactly once, so a change of the generated layout fails loudly instead
 * of silently producing an unintended configuration.
 */
public final class ConfigText {
  private String yaml;

  private ConfigText(String yaml) {
    this.yaml = yaml;
  }

  /** Reads the configuration file at {@code path}. */
  public static ConfigText read(Path path) {
    try {
      return new ConfigText(Files.readString(path, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Replaces the single occurrence of {@code fragment}.
   *
   * @throws IllegalStateException when {@code fragment} occurs zero or several times
   */
  public ConfigText replace(String fragment, String replacement) {
    int first = yaml.indexOf(fragment);
    if (first < 0 || yaml.indexOf(fragment, first + 1) >= 0) {
      throw new IllegalStateException(
          "expected exactly one occurrence of <" + fragment + "> in:\n" + yaml);
    }
    yaml = yaml.substring(0, first) + replacement + yaml.substring(first + fragment.length());
    return this;
  }

  /** Inserts {@code lines} right after the single line equal to {@code anchorLine}. */
  public ConfigText insertAfter(String anchorLine, String lines) {
    String anchor = anchorLine + "\n";
    return replace(anchor, anchor + lines);
  }

  /** Writes the text to {@code path} and returns the path. */
  public Path writeTo(Path path) {
    try {
      Files.writeString(path, yaml, StandardCharsets.UTF_8);
      return path;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return yaml;
  }
}
