package io.sf2loki.core.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.LocalDate;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BudgetValueTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @DisplayName("SRC-15: egress:budget is written as {\"date\": ..., \"bytes\": N} in this order")
  void src15_format() {
    assertThat(new BudgetValue(LocalDate.parse("2026-01-02"), 0).toJson())
        .isEqualTo("{\"date\": \"2026-01-02\", \"bytes\": 0}");
    assertThat(new BudgetValue(LocalDate.parse("2026-11-29"), Long.MAX_VALUE).toJson())
        .isEqualTo("{\"date\": \"2026-11-29\", \"bytes\": 9223372036854775807}");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"date\": \"2026-11-29\", \"bytes\": 12}",
        "{\"bytes\":12,\"date\":\"2026-11-29\"}",
        "\t{ \"date\" : \"2026-11-29\" ,\r\n \"bytes\" : 12 }\n",
        "{\"date\": \"2026-11-29\", \"bytes\": 1.2e1}",
        "{\"date\": \"2026-11-29\", \"bytes\": 12.0}",
        "{\"a\": {\"b\": [true, false, null, -1.5E-3, \"x\\\"y\\u00e9\"]}, \"date\": \"2026-11-29\","
            + " \"bytes\": 12}",
        "{\"date\": \"1999-01-01\", \"date\": \"2026-11-29\", \"bytes\": 3, \"bytes\": 12}",
        "{\"d\\u0061te\": \"2026-11-29\", \"bytes\": 12}"
      })
  @DisplayName("SRC-15: readers accept any valid JSON object with the fields")
  void src15_readsAnyValidJson(String json) throws Exception {
    assertThat(BudgetValue.parse(json))
        .contains(new BudgetValue(LocalDate.parse("2026-11-29"), 12));
    JSON.readTree(json); // the oracle agrees the input is valid JSON
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "null",
        "{}",
        "{\"date\": \"2026-11-29\", \"bytes\": 12,}",
        "{\"date\": \"2026-11-29\" \"bytes\": 12}",
        "{'date': '2026-11-29', 'bytes': 12}",
        "{\"date\": \"2026-11-29\", \"bytes\": 012}",
        "{\"date\": \"2026-11-29\", \"bytes\": 1e400}",
        "{\"date\": \"2026-11-29\", \"bytes\": 99999999999999999999}",
        "{\"date\": \"2026-02-30\", \"bytes\": 12}",
        "{\"date\": \"2026-11-29T00:00:00Z\", \"bytes\": 12}",
        "{\"date\": \"2026-11-29\", \"bytes\": 12, \"x\": \"\\u12G4\"}",
        "{\"date\": \"2026-11-29\", \"bytes\": 12, \"x\": tru}",
        "{\"date\": null, \"bytes\": 12}",
        "{\"date\": \"2026-11-29\", \"bytes\": null}"
      })
  @DisplayName("EGR-2: anything else is corrupt")
  void egr2_rejectsCorrupt(String json) {
    assertThat(BudgetValue.parse(json)).isEmpty();
  }

  @Test
  @DisplayName("SRC-15: seeded round trip and agreement with a JSON library on random documents")
  void roundTripAndOracle() throws Exception {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    for (int i = 0; i < 300; i++) {
      BudgetValue v =
          new BudgetValue(
              LocalDate.ofEpochDay(rnd.nextInt(20_000)), rnd.nextLong() & Long.MAX_VALUE);
      assertThat(BudgetValue.parse(v.toJson())).as("seed %d", seed).contains(v);
      String doc =
          "{\"extra\": ["
              + rnd.nextInt()
              + ", \"s\"], \"bytes\": "
              + v.bytes()
              + ", \"date\": \""
              + v.date()
              + "\"}";
      JsonNode n = JSON.readTree(doc);
      assertThat(BudgetValue.parse(doc))
          .as("seed %d", seed)
          .contains(
              new BudgetValue(LocalDate.parse(n.get("date").asText()), n.get("bytes").asLong()));
    }
  }

  @Test
  @DisplayName("EGR-6: a later capture wins: order by date then bytes; corrupt loses")
  void egr6_laterCaptureWins() {
    String a = "{\"date\": \"2026-11-29\", \"bytes\": 900}";
    String b = "{\"date\": \"2026-11-30\", \"bytes\": 10}";
    String c = "{\"date\": \"2026-11-30\", \"bytes\": 20}";
    assertThat(BudgetValue.later(a, b)).isEqualTo(b);
    assertThat(BudgetValue.later(b, a)).isEqualTo(b);
    assertThat(BudgetValue.later(c, b)).isEqualTo(c);
    assertThat(BudgetValue.later("junk", a)).isEqualTo(a);
    assertThat(BudgetValue.later(a, "junk")).isEqualTo(a);
    assertThat(BudgetValue.parse(null)).isEqualTo(Optional.empty());
  }
}
