package io.sf2loki.core.model;

import java.util.Objects;

/**
 * A cursor position: committing it stores {@code value} under {@code key} in the checkpoint store
 * (SPEC SRC-1, SRC-15). Immutable; may be shared by many entries (PIPE-3).
 *
 * @param key checkpoint key, e.g. {@code eventlogfile:Login} (SRC-15 formats)
 * @param value opaque string value in the SRC-15 format for the key's owner
 */
public record CheckpointToken(String key, String value) {
  public CheckpointToken {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }
}
