package io.sf2loki.salesforce.objects;

import java.util.Optional;

/** Test-scope access to the package-private object cursor parser for the cursor fuzz target. */
public final class ObjectCursorFuzzAccess {
  private ObjectCursorFuzzAccess() {}

  /** OBJ-2: the stored value re-encoded, or empty when unusable. */
  public static Optional<String> roundTrip(String stored) {
    return ObjectCursor.parse(stored).map(ObjectCursor::toValue);
  }
}
