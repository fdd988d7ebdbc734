package io.sf2loki.app.config;

import java.util.List;

/**
 * The configuration cannot be used (SPEC CFG-4). Either a list of {@link Problem}s, rendered as
 * {@code invalid configuration:} followed by one line {@code " <dotted.path>: <message>"} per
 * problem, or a single whole-file message (unreadable file, YAML syntax, non-mapping root,
 * undefined environment variable, CFG-28). Messages never contain secret values. The CLI maps it to
 * exit code 2 (CLI-5).
 */
public final class ConfigException extends RuntimeException {
  /** One problem at a dotted path (list indices as numbers, e.g. {@code orgs.1.name}). */
  public record Problem(String path, String message) {
    @Override
    public String toString() {
      return path.isEmpty() ? message : path + ": " + message;
    }
  }

  private final transient List<Problem> problems;

  /** A whole-configuration error without a key path. */
  public ConfigException(String message) {
    super(message);
    this.problems = List.of();
  }

  /** A whole-configuration error with a cause (e.g. an I/O failure reading the file). */
  public ConfigException(String message, Throwable cause) {
    super(message, cause);
    this.problems = List.of();
  }

  /**
   * @param problems at least one problem, in discovery order
   */
  public ConfigException(List<Problem> problems) {
    super(render(problems));
    this.problems = List.copyOf(problems);
  }

  /** The individual problems (empty for a whole-configuration error). */
  public List<Problem> problems() {
    return problems;
  }

  private static String render(List<Problem> problems) {
    StringBuilder sb = new StringBuilder("invalid configuration:");
    for (Problem p : problems) {
      sb.append("\n  ").append(p);
    }
    return sb.toString();
  }
}
