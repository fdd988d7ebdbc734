package io.sf2loki.core.transform;

/** The transform actions of SPEC XF-2…XF-6, with their configuration spelling. */
public enum TransformAction {
  /** XF-2. */
  HASH("hash"),
  /** XF-3. */
  MASK("mask"),
  /** XF-4. */
  DROP_FIELD("drop_field"),
  /** XF-6. */
  DROP_ROW("drop_row"),
  /** XF-5. */
  REGEX_REPLACE("regex_replace");

  private final String yaml;

  TransformAction(String yaml) {
    this.yaml = yaml;
  }

  /** The configuration spelling ({@code hash}, {@code drop_row}, …). */
  public String yaml() {
    return yaml;
  }
}
