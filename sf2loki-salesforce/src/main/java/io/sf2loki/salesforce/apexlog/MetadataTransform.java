package io.sf2loki.salesforce.apexlog;

import java.util.Map;

/**
 * The compiled {@code sources.apexlog.transforms} (SPEC XF-1…XF-6, APX-7): applied in place to each
 * log's metadata map before sampling and shaping, never to the body.
 */
@FunctionalInterface
public interface MetadataTransform {
  /** No transforms: every log is kept unchanged. */
  MetadataTransform NONE = metadata -> true;

  /**
   * Applies the rules in place.
   *
   * @param metadata mutable field → value map of one log (the APX-1 listing fields)
   * @return false when a {@code drop_row} rule matched (the log produces no entry, its body is not
   *     fetched, and the cursor still moves past it)
   */
  boolean apply(Map<String, Object> metadata);
}
