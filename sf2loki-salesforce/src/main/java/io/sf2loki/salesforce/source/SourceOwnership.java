package io.sf2loki.salesforce.source;

/**
 * One org's run-time ownership registry for one term, as the discovering sources see it (SPEC
 * SRC-22…SRC-24): discovered Pub/Sub topics skip a category owned by an object or an explicit
 * EventLogFile type, discovered EventLogFile types skip a category owned by a topic or an object.
 * Built by the application per term and org; {@link #none()} when nothing can be owned elsewhere.
 * Implementations are thread-safe.
 */
@FunctionalInterface
public interface SourceOwnership {
  /**
   * Whether a discovered topic's category (SRC-22) is owned by an object or an explicit ELF type of
   * the same org; such a topic is skipped (INFO once per term).
   */
  boolean ownedElsewhere(String topic);

  /** A discovered topic got its reader: its category is now owned by Pub/Sub. */
  default void claim(String topic) {}

  /**
   * The reader of a discovered topic has stopped and been joined (retired by PS-21, or the term
   * ended): its category is released.
   */
  default void release(String topic) {}

  /**
   * The first discovery pass of the term finished, successfully or not, or the term stopped before
   * it did (SRC-24: ELF discovery waits for this). Called at most once per source.
   */
  default void firstPassDone() {}

  /**
   * Whether a discovered EventType's category is owned by a Pub/Sub topic (explicit or discovered
   * so far) or an object of the same org; such a type is skipped with INFO. May wait for the first
   * Pub/Sub discovery pass when both wildcards are configured.
   */
  default boolean elfTypeOwnedElsewhere(String eventType) {
    return false;
  }

  /** No registry: nothing is owned elsewhere. */
  static SourceOwnership none() {
    return topic -> false;
  }
}
