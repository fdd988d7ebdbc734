package io.sf2loki.salesforce.apexlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.revisit.Revisit;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Revisit query text for ApexLog (SPEC APX-10, SRC-16, SRC-18). */
class ApexLogSoqlRevisitTest {
  private static final Revisit.Range RANGE =
      new Revisit.Range(
          Instant.parse("2024-06-05T11:30:00Z"), false, Instant.parse("2024-06-05T11:59:01.5Z"));

  @Test
  @DisplayName(
      "APX-10: the ApexLog revisit lists Id and StartTime only, DESC, below the watermark, with"
          + " the users filter escaped")
  void apx10_listing() {
    assertThat(ApexLogSoql.revisitListing(RANGE, List.of(), 20_000))
        .isEqualTo(
            "SELECT Id, StartTime FROM ApexLog WHERE StartTime >= 2024-06-05T11:30:00.000Z AND"
                + " StartTime < 2024-06-05T11:59:01.500Z ORDER BY StartTime DESC, Id DESC LIMIT"
                + " 20000");
    assertThat(ApexLogSoql.revisitListing(RANGE, List.of("a@x.com", "o'b@x.com"), 5))
        .contains(" AND LogUser.Username IN ('a@x.com','o\\'b@x.com') ORDER BY");
  }

  @Test
  @DisplayName("APX-10: full metadata only for the listed Ids not shipped yet: Id IN (…)")
  void apx10_fetch() {
    assertThat(ApexLogSoql.revisitFetch(List.of("07L000000000001AAA", "07L000000000002AAA")))
        .isEqualTo(
            "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime, Application,"
                + " DurationMilliseconds, Location FROM ApexLog WHERE Id IN"
                + " ('07L000000000001AAA','07L000000000002AAA') ORDER BY StartTime ASC, Id ASC"
                + " LIMIT 200");
  }
}
