package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sf2loki.salesforce.apexlog.ApexLogCursor;
import io.sf2loki.salesforce.elf.ElfCursorFuzzAccess;
import io.sf2loki.salesforce.objects.ObjectCursorFuzzAccess;
import io.sf2loki.salesforce.pubsub.ReplayStart;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;

/**
 * Fuzz target: the checkpoint value parsers behind {@link CursorCodec#decode} and {@link
 * CursorReader} (SRC-2, SRC-12, SRC-15) on hostile stored values: the EventLogFile cursor (ELF-4),
 * the object cursor (OBJ-2), the ApexLog cursor (APX-2) and the Pub/Sub replay id (PS-12 lenient
 * base64). Contract: a stored value is a cursor or unusable (empty / {@code unusable}, which the
 * caller WARNs about and counts); nothing is thrown, and a usable cursor survives its own encoding
 * (re-encoding is stable). Every input is fed to every parser. Committed inputs replay in the
 * default build (CursorParsersFuzzTestInputs/); {@code -Pfuzz} fuzzes.
 */
class CursorParsersFuzzTest {
  private static final String DEFAULT_TS = "2026-01-01T00:00:00Z";
  private static final String DEFAULT_CREATED = "2026-01-01T00:00:00.000+0000";

  @DisplayName("SRC-12/SRC-15: a hostile stored checkpoint value is a cursor or unusable")
  @FuzzTest(maxDuration = "30s")
  void src12_fuzzStoredCursor(String stored) {
    Optional<String> elf = ElfCursorFuzzAccess.roundTrip(stored, DEFAULT_CREATED);
    elf.ifPresent(v -> assertThat(ElfCursorFuzzAccess.roundTrip(v, DEFAULT_CREATED)).hasValue(v));

    Optional<String> object = ObjectCursorFuzzAccess.roundTrip(stored);
    object.ifPresent(v -> assertThat(ObjectCursorFuzzAccess.roundTrip(v)).hasValue(v));

    ApexLogCursor.Loaded apex = ApexLogCursor.load(stored, DEFAULT_TS);
    assertThat(apex.cursor()).isNotNull();
    if (!apex.unusable()) {
      String v = apex.cursor().toValue();
      ApexLogCursor.Loaded again = ApexLogCursor.load(v, DEFAULT_TS);
      assertThat(again.unusable()).isFalse();
      assertThat(again.cursor().toValue()).isEqualTo(v);
    }

    // Jazzer also passes null (an absent key: the other parsers take it, a replay id is never read
    // without a stored value)
    if (stored != null) {
      ReplayStart.decodeLenient(stored).ifPresent(b -> assertThat(b).isNotNull());
    }
  }
}
