package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class StoredCursorsTest {
  /** A codec that salvages the digits of an unusable value (as APX-2 keeps valid ids). */
  private final CursorCodec<String> salvaging =
      new CursorCodec<>() {
        @Override
        public Optional<String> decode(String value) {
          return value.matches("\\d+") ? Optional.of(value) : Optional.empty();
        }

        @Override
        public String encode(String cursor) {
          return cursor;
        }

        @Override
        public Decoded<String> decodeOr(String value, String fresh) {
          return decode(value)
              .map(v -> new Decoded<>(v, true))
              .orElseGet(() -> new Decoded<>(fresh + value.replaceAll("\\D", ""), false));
        }
      };

  private String load(Map<String, String> stored) {
    StoredCursors c =
        new StoredCursors(k -> Optional.ofNullable(stored.get(k)), Sf2lokiMetrics.noop());
    return c.load(
        LoggerFactory.getLogger(StoredCursorsTest.class),
        "src",
        "src:k",
        salvaging,
        "fresh",
        "since",
        "unusable");
  }

  @Test
  @DisplayName("SRC-12: absent -> fresh; usable -> decoded; unusable -> what the codec salvages")
  void src12_salvage() {
    assertThat(load(Map.of())).isEqualTo("fresh");
    assertThat(load(Map.of("src:k", "42"))).isEqualTo("42");
    assertThat(load(Map.of("src:k", "x7y"))).isEqualTo("fresh7");
  }
}
