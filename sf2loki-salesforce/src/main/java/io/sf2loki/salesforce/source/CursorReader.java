package io.sf2loki.salesforce.source;

import java.util.Optional;

/**
 * Read-only access to the stored checkpoints of the term (SPEC SRC-2): a source reads its cursors
 * once and never writes them; commits go through entries' tokens. Usually {@code
 * CheckpointStore::load}.
 */
@FunctionalInterface
public interface CursorReader {
  /**
   * @param key the unprefixed checkpoint key, e.g. {@code eventlogfile:Login}
   * @return the stored value, or empty when none is stored
   */
  Optional<String> load(String key);
}
