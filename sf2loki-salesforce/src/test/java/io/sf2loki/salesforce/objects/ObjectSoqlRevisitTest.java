package io.sf2loki.salesforce.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.salesforce.revisit.Revisit;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Revisit query text for SOQL objects (SPEC OBJ-13, OBJ-5, OBJ-7, SRC-16, SRC-18). */
class ObjectSoqlRevisitTest {
  private static final Instant FROM = Instant.parse("2024-05-01T11:30:00Z");
  private static final Instant WM = Instant.parse("2024-05-01T11:59:00.123456Z");
  private static final Revisit.Range RANGE = new Revisit.Range(FROM, false, WM);

  private static ObjectSettings loginHistory() {
    return ObjectSettings.defaults("LoginHistory", false).withTimestampField("LoginTime");
  }

  @Test
  @DisplayName(
      "OBJ-13: an ordinary object's revisit lists Id and timestamp only, DESC, below the"
          + " watermark, bounded by revisit_max_keys")
  void obj13_ascObjectListing() {
    assertThat(ObjectSoql.revisitListing(loginHistory(), false, RANGE, 20_000))
        .isEqualTo(
            "SELECT Id, LoginTime FROM LoginHistory WHERE LoginTime >= 2024-05-01T11:30:00.000Z"
                + " AND LoginTime < 2024-05-01T11:59:00.123Z ORDER BY LoginTime DESC, Id DESC"
                + " LIMIT 20000");
    // placeholder-Id objects keyed by the tiebreak field also select it; exclusive start
    assertThat(
            ObjectSoql.revisitListing(loginHistory(), true, new Revisit.Range(FROM, true, WM), 10))
        .isEqualTo(
            "SELECT Id, LoginTime, EventIdentifier FROM LoginHistory WHERE LoginTime >"
                + " 2024-05-01T11:30:00.000Z AND LoginTime < 2024-05-01T11:59:00.123Z ORDER BY"
                + " LoginTime DESC, Id DESC LIMIT 10");
  }

  @Test
  @DisplayName(
      "OBJ-13, OBJ-5, OBJ-7: a Big Object's revisit uses index fields only: listing on"
          + " timestamp + tiebreak, DESC; fetch with = on the timestamp and IN on the tiebreak")
  void obj13_bigObjectQueries() {
    ObjectSettings le = ObjectSettings.defaults("LoginEvent", true);
    assertThat(ObjectSoql.revisitListing(le, false, RANGE, 500))
        .isEqualTo(
            "SELECT EventDate, EventIdentifier FROM LoginEvent WHERE EventDate >="
                + " 2024-05-01T11:30:00.000Z AND EventDate < 2024-05-01T11:59:00.123Z ORDER BY"
                + " EventDate DESC, EventIdentifier DESC LIMIT 500")
        .doesNotContain("Id,")
        .doesNotContain(" Id ");
    assertThat(ObjectSoql.revisitFetch(le, "EventIdentifier", WM, List.of("e-1", "e'2")))
        .isEqualTo(
            "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate = 2024-05-01T11:59:00.123Z AND"
                + " EventIdentifier IN ('e-1','e\\'2') LIMIT 200");
  }

  @Test
  @DisplayName(
      "OBJ-13, SRC-18: full rows by Id IN (…) with every Id escaped, at most 200 per query")
  void obj13_fetchById() {
    assertThat(
            ObjectSoql.revisitFetch(
                loginHistory(), "Id", null, List.of("0Ya000000000001AAA", "x\\'y")))
        .isEqualTo(
            "SELECT FIELDS(ALL) FROM LoginHistory WHERE Id IN ('0Ya000000000001AAA','x\\\\\\'y')"
                + " LIMIT 200");
    assertThatThrownBy(
            () ->
                ObjectSoql.revisitFetch(
                    loginHistory(), "Id", null, Collections.nCopies(201, "0Ya000000000001AAA")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> ObjectSoql.revisitFetch(loginHistory(), "Id) OR (1", null, List.of("a")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
