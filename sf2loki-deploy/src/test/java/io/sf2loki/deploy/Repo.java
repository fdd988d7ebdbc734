package io.sf2loki.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Paths of the checkout and the build, given by surefire ({@code sf2loki.repo}, {@code
 * sf2loki.version}).
 */
final class Repo {
  private Repo() {}

  /** The repository root (the parent of this module). */
  static Path root() {
    String p = System.getProperty("sf2loki.repo");
    Path root = p == null ? Path.of("..").toAbsolutePath() : Path.of(p);
    root = root.normalize();
    if (!Files.exists(root.resolve("docs/SPEC.md"))) {
      throw new IllegalStateException("not the sf2loki repository root: " + root);
    }
    return root;
  }

  /** The Maven project version, e.g. {@code 0.1.0-SNAPSHOT}. */
  static String version() {
    String v = System.getProperty("sf2loki.version");
    if (v == null || v.isBlank()) {
      throw new IllegalStateException(
          "system property sf2loki.version is not set (run through Maven)");
    }
    return v;
  }

  /** {@code sf2loki-app/target}, where the tarball and the image archive are written. */
  static Path appTarget() {
    return root().resolve("sf2loki-app/target");
  }
}
