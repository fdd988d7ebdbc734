package io.sf2loki.salesforce.elf;

import java.util.Map;

/**
 * The compiled {@code sources.eventlogfile.transforms} (SPEC XF-1…XF-6) applied to each CSV row
 * before sampling and shaping (SRC-4, ELF-14). Must be thread-safe: rows of different types are
 * shaped concurrently.
 */
@FunctionalInterface
public interface RowTransform {
  /** No transforms: every row is kept unchanged. */
  RowTransform NONE = row -> true;

  /**
   * Applies the rules in place.
   *
   * @param row mutable column → value map (values are strings before the first rule)
   * @return false when a {@code drop_row} rule matched (the row produces no entry; the rule's
   *     {@code sf2loki_rows_filtered} count is the transform's job)
   */
  boolean apply(Map<String, Object> row);
}
