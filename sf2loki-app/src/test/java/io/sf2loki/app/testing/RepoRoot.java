package io.sf2loki.app.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository checkout the tests run in: the nearest ancestor holding {@code docs/SPEC.md}. */
public final class RepoRoot {
  private RepoRoot() {}

  /**
   * @return the repository root above the working directory
   * @throws IllegalStateException when no ancestor holds {@code docs/SPEC.md}
   */
  public static Path find() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("docs/SPEC.md"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("docs/SPEC.md not found above the working directory");
    }
    return p;
  }
}
