package io.sf2loki.salesforce.elf;

import java.util.Optional;

/**
 * Test-scope access to the package-private EventLogFile cursor codec for the cursor fuzz target.
 */
public final class ElfCursorFuzzAccess {
  private static final ElfCursorCodec CODEC = new ElfCursorCodec();

  private ElfCursorFuzzAccess() {}

  /** ELF-4: the stored value re-encoded, or empty when unusable. */
  public static Optional<String> roundTrip(String stored, String defaultLastCreated) {
    return CODEC.parse(stored, defaultLastCreated).map(ElfCursor::toValue);
  }
}
