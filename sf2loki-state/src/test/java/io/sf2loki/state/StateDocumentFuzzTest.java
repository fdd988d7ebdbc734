package io.sf2loki.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.state.lease.LeaseDocument;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;

/**
 * Fuzz target: the stored state documents every back end reads (file, S3 and GCS stores: the
 * checkpoint document of STATE-1/STATE-3; the file/S3/GCS lease document of HA-9) on hostile bytes
 * (invalid UTF-8, deep nesting, huge numbers, duplicate keys, non-string values). Contract: a
 * checkpoint document parses to a string map or the named {@link StateCorruptException} of the
 * caller's report; a lease document parses or counts as absent (empty), never throws; whatever
 * parses survives its own serialisation. Every input is fed to both parsers. Committed inputs
 * replay in the default build (StateDocumentFuzzTestInputs/); {@code -Pfuzz} fuzzes.
 */
class StateDocumentFuzzTest {
  private static final CheckpointDocument.CorruptionReport REPORT =
      (what, cause) -> new StateCorruptException("state document " + what, cause);

  @DisplayName("STATE-3/HA-9: hostile stored bytes parse, are corrupt, or count as absent")
  @FuzzTest(maxDuration = "30s")
  void state3_fuzzStoredDocument(byte[] input) {
    try {
      Map<String, String> doc = CheckpointDocument.parse(input, REPORT);
      assertThat(doc).doesNotContainKey(null).doesNotContainValue(null);
      assertThat(CheckpointDocument.parse(CheckpointDocument.serialise(doc), REPORT))
          .containsExactlyEntriesOf(doc);
      CheckpointDocument.visible(doc);
      CheckpointDocument.fenceEpoch(doc);
    } catch (StateCorruptException expected) {
      assertThat(expected.getMessage()).startsWith("state document ");
    }

    Optional<LeaseDocument> lease = LeaseDocument.parse(input);
    lease.ifPresent(
        l -> {
          Optional<LeaseDocument> again = LeaseDocument.parse(l.serialise());
          assertThat(again).isPresent();
          assertThat(again.get().holder()).isEqualTo(l.holder());
          assertThat(again.get().epoch()).isEqualTo(l.epoch());
        });
  }
}
