package io.sf2loki.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SRC-7 byte-level oracle: the golden corpus produced by Python's json.dumps (§21 behaviour 14).
 */
class CanonicalJsonGoldenTest {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    try (InputStream in =
            CanonicalJsonGoldenTest.class.getResourceAsStream("/golden/canonical_json.jsonl");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> c = MAPPER.readValue(line, Map.class);
        out.add(
            Arguments.of(
                c.get("name"),
                c.get("input"),
                Base64.getDecoder().decode((String) c.get("expected_line_utf8_b64"))));
      }
    }
    return out.stream();
  }

  @Test
  @DisplayName("SRC-7: the golden corpus has all 64 cases and ints parse as BigInteger")
  void corpusComplete() throws IOException {
    List<Arguments> all = cases().toList();
    assertThat(all).hasSize(64);
    Object input =
        all.stream().filter(a -> a.get()[0].equals("int_huge")).findFirst().orElseThrow().get()[1];
    assertThat(((Map<?, ?>) input).get("a")).isInstanceOf(BigInteger.class);
  }

  @ParameterizedTest(name = "SRC-7 golden: {0}")
  @MethodSource("cases")
  void matchesPythonBytes(String name, Object input, byte[] expected) {
    byte[] actual = CanonicalJson.write(input).getBytes(StandardCharsets.UTF_8);
    assertThat(new String(actual, StandardCharsets.UTF_8))
        .as(name)
        .isEqualTo(new String(expected, StandardCharsets.UTF_8));
    assertThat(actual).isEqualTo(expected);
  }

  @ParameterizedTest(name = "SRC-7 golden via RowWriter(Map): {0}")
  @MethodSource("cases")
  void rowWriterMapPathMatches(String name, Object input, byte[] expected) {
    if (!(input instanceof Map<?, ?> m)) {
      return;
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> row = (Map<String, ?>) m;
    StringBuilder sb = new StringBuilder();
    new CanonicalJson.RowWriter(new ArrayList<>(row.keySet())).write(row, sb);
    assertThat(sb.toString().getBytes(StandardCharsets.UTF_8)).isEqualTo(expected);
  }
}
