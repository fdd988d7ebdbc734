package io.sf2loki.core.shape;

import java.util.Map;

/** Derives the {@code level} structured-metadata value of SPEC SRC-10. */
public final class LevelDeriver {
  private LevelDeriver() {}

  /**
   * @param payload the post-transform record (field name → decoded value)
   * @return {@code error}, {@code warn} or {@code info}
   */
  public static String level(Map<String, ?> payload) {
    throw new UnsupportedOperationException("TODO(shaping helper)");
  }
}
