package io.sf2loki.sim.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.time.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SimObjectStoreTest {
  private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
  private FakeTime time;
  private SimObjectStore store;

  @BeforeEach
  void setUp() {
    time = new FakeTime(T0.plus(Duration.ofHours(1)));
    store = new SimObjectStore(time.wall(), "60.0");
    store.defineObject("LoginHistory", "LoginTime");
    store.defineBigObject("LoginEvent");
  }

  @Test
  @DisplayName(
      "FEAT-18, OBJ-3: timestamps are stored at millisecond precision like Salesforce, so a"
          + " filter on the rendered value matches the row")
  void timestampsStoredAtMillisecondPrecision() throws Exception {
    store.add("LoginHistory", T0.plusNanos(307_123_456), Map.of());
    List<Map<String, Object>> rows =
        store.query(
            "SELECT FIELDS(ALL) FROM LoginHistory WHERE LoginTime <= 2024-05-01T10:00:00.307Z"
                + " ORDER BY LoginTime ASC, Id ASC LIMIT 200");
    assertThat(rows).hasSize(1);
    assertThat(rows.getFirst().get("LoginTime")).isEqualTo("2024-05-01T10:00:00.307+0000");
  }

  @Test
  @DisplayName("OBJ-3: the ascending compound cursor query returns rows after (ts, Id)")
  void ascCompound() throws Exception {
    List<SimObjectRecord> tie = store.addTieGroup("LoginHistory", T0, 5);
    store.addSeries("LoginHistory", T0.plusSeconds(1), Duration.ofSeconds(1), 3);
    String last = tie.get(2).id();
    List<Map<String, Object>> rows =
        store.query(
            "SELECT FIELDS(ALL) FROM LoginHistory WHERE (LoginTime > 2024-05-01T10:00:00.000Z OR"
                + " (LoginTime = 2024-05-01T10:00:00.000Z AND Id > '"
                + last
                + "')) ORDER BY LoginTime ASC, Id ASC LIMIT 200");
    assertThat(rows).hasSize(5);
    assertThat(rows.getFirst().get("Id")).isEqualTo(tie.get(3).id());
    assertThat(rows.getFirst().get("LoginTime")).isEqualTo("2024-05-01T10:00:00.000+0000");
    assertThat(rows.getFirst()).containsKey("attributes");
  }

  @Test
  @DisplayName(
      "FEAT-18, OBJ-5: a Big Object refuses ASC, Id predicates, NOT IN and non-index fields")
  void bigObjectRules() throws Exception {
    store.addTieGroup("LoginEvent", T0, 3);
    for (String bad :
        List.of(
            "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate >= 2024-05-01T00:00:00.000Z"
                + " ORDER BY EventDate ASC LIMIT 200",
            "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate >= 2024-05-01T00:00:00.000Z"
                + " ORDER BY EventDate LIMIT 200",
            "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate >= 2024-05-01T00:00:00.000Z AND"
                + " Id > '000000000000000AAA' ORDER BY EventDate DESC LIMIT 200",
            "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate >= 2024-05-01T00:00:00.000Z AND"
                + " EventIdentifier NOT IN ('a') ORDER BY EventDate DESC LIMIT 200",
            "SELECT FIELDS(ALL) FROM LoginEvent WHERE UserId = 'x' ORDER BY EventDate DESC LIMIT"
                + " 200")) {
      assertThatThrownBy(() -> store.query(bad))
          .isInstanceOfSatisfying(
              SoqlRejection.class,
              r -> {
                assertThat(r.status).isEqualTo(400);
                assertThat(r.errorCode).isEqualTo("BIG_OBJECT_UNSUPPORTED_OPERATION");
              });
    }
    List<Map<String, Object>> ok =
        store.query(
            "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate = 2024-05-01T10:00:00.000Z"
                + " ORDER BY EventDate DESC, EventIdentifier DESC LIMIT 200");
    assertThat(ok).hasSize(3);
    assertThat(ok).allSatisfy(r -> assertThat(r.get("Id")).isEqualTo("000000000000000AAA"));
    assertThat((String) ok.get(0).get("EventIdentifier"))
        .isGreaterThan((String) ok.get(1).get("EventIdentifier"));
  }

  @Test
  @DisplayName("OBJ-6: a late-visible row is returned only once the org clock reaches visibility")
  void lateVisibility() throws Exception {
    store.add("LoginHistory", time.now(), Duration.ofSeconds(90), Map.of());
    String q = "SELECT FIELDS(ALL) FROM LoginHistory ORDER BY LoginTime ASC, Id ASC LIMIT 200";
    assertThat(store.query(q)).isEmpty();
    time.advance(Duration.ofSeconds(90));
    assertThat(store.query(q)).hasSize(1);
  }

  @Test
  void malformedAndUnknown() {
    assertThatThrownBy(() -> store.query("SELECT FIELDS(ALL) FROM LoginHistory"))
        .isInstanceOfSatisfying(
            SoqlRejection.class, r -> assertThat(r.errorCode).isEqualTo("MALFORMED_QUERY"));
    assertThatThrownBy(() -> store.query("SELECT Id FROM Nope LIMIT 1"))
        .isInstanceOfSatisfying(
            SoqlRejection.class, r -> assertThat(r.errorCode).isEqualTo("INVALID_TYPE"));
  }

  @Test
  @DisplayName(
      "OBJ-13, FEAT-18: revisit shapes: key-only field lists, Id IN (…) on ordinary objects, and"
          + " on Big Objects IN only next to = on the leading index field; late rows generated;"
          + " queries logged per object")
  void obj13_revisitShapes() throws Exception {
    time.advance(Duration.ofMinutes(10));
    Instant now = time.now();
    var late = store.addLate("LoginHistory", now, Duration.ofMinutes(5), Duration.ofMinutes(20), 4);
    assertThat(late)
        .extracting(SimObjectRecord::timestamp)
        .containsExactly(
            now.minus(Duration.ofMinutes(5)),
            now.minus(Duration.ofMinutes(10)),
            now.minus(Duration.ofMinutes(15)),
            now.minus(Duration.ofMinutes(20)));
    List<Map<String, Object>> listed =
        store.query(
            "SELECT Id, LoginTime FROM LoginHistory WHERE LoginTime >= 2024-05-01T10:00:00.000Z"
                + " AND LoginTime < 2024-05-01T12:00:00.000Z ORDER BY LoginTime DESC, Id DESC"
                + " LIMIT 3");
    assertThat(listed).hasSize(3);
    assertThat(listed.getFirst().keySet()).containsExactly("attributes", "Id", "LoginTime");
    List<Map<String, Object>> byId =
        store.query(
            "SELECT FIELDS(ALL) FROM LoginHistory WHERE Id IN ('"
                + late.get(0).id()
                + "','"
                + late.get(3).id()
                + "') LIMIT 200");
    assertThat(byId)
        .extracting(r -> r.get("Id"))
        .containsExactlyInAnyOrder(late.get(0).id(), late.get(3).id());
    assertThat(store.queries("LoginHistory")).hasSize(2);

    var tie = store.addTieGroup("LoginEvent", T0, 3);
    String tb = (String) tie.get(1).get("EventIdentifier");
    assertThat(
            store.query(
                "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate = 2024-05-01T10:00:00.000Z AND"
                    + " EventIdentifier IN ('"
                    + tb
                    + "') LIMIT 200"))
        .singleElement()
        .satisfies(r -> assertThat(r.get("EventIdentifier")).isEqualTo(tb));
    assertThatThrownBy(
            () ->
                store.query(
                    "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate >= 2024-05-01T10:00:00.000Z"
                        + " AND EventIdentifier IN ('x') LIMIT 200"))
        .isInstanceOfSatisfying(
            SoqlRejection.class,
            r -> assertThat(r.errorCode).isEqualTo("BIG_OBJECT_UNSUPPORTED_OPERATION"));
  }
}
