package io.sf2loki.core.shape;

import java.util.List;
import java.util.Map;

/**
 * Builds an entry's structured metadata per SPEC SRC-9: for each configured name, the value of the
 * key equal to the name, else of the first key (sorted) whose snake form equals it; non-null values
 * as text form; then {@code level} (SRC-10) always set. Immutable and thread-safe.
 */
public final class StructuredMetadataExtractor {
  private final List<String> names;

  /**
   * @param names the effective metadata field list (global or ELF per-type override)
   */
  public StructuredMetadataExtractor(List<String> names) {
    this.names = List.copyOf(names);
  }

  /** The configured names. */
  public List<String> names() {
    return names;
  }

  /**
   * @param payload the post-transform record
   * @return metadata name → text-form value, including {@code level}
   */
  public Map<String, String> extract(Map<String, ?> payload) {
    throw new UnsupportedOperationException("TODO(shaping helper)");
  }

  /**
   * The snake form of SRC-9 ({@code EventUuid}→{@code event_uuid}, {@code USER_ID}→{@code
   * user_id}).
   */
  public static String snakeForm(String name) {
    throw new UnsupportedOperationException("TODO(shaping helper)");
  }
}
