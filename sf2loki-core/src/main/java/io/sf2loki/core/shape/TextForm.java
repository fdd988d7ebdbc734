package io.sf2loki.core.shape;

/** The text form of a value (SPEC SRC-8): what hash/regex transforms and metadata values see. */
public final class TextForm {
  private TextForm() {}

  /**
   * @param value any decoded payload value
   * @return its text form, or null when {@code value} is null (absent)
   */
  public static String of(Object value) {
    throw new UnsupportedOperationException("TODO(shaping helper)");
  }
}
