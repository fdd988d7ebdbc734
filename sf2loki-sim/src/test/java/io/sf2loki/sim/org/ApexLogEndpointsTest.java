package io.sf2loki.sim.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApexLogEndpointsTest {
  private static final String SELECT =
      "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime, Application,"
          + " DurationMilliseconds, Location FROM ApexLog WHERE ";
  private static final String ORDER = " ORDER BY StartTime ASC, Id ASC LIMIT 200";

  @Test
  @DisplayName("APX-1: the sim accepts the empty-window and compound shapes and unescapes literals")
  void acceptsApx1Shapes() throws Exception {
    var simple = ApexLogEndpoints.parse(SELECT + "StartTime >= 2024-06-05T11:00:00.000Z" + ORDER);
    assertThat(simple.compound()).isFalse();
    assertThat(simple.from()).isEqualTo(Instant.parse("2024-06-05T11:00:00Z"));
    assertThat(simple.users()).isNull();
    assertThat(simple.limit()).isEqualTo(200);

    var compound =
        ApexLogEndpoints.parse(
            SELECT
                + "(StartTime > 2024-06-05T11:00:00.000Z OR (StartTime = 2024-06-05T11:00:00.000Z"
                + " AND Id > '07L\\'x')) AND LogUser.Username IN ('a@x.com','o\\'b\\\\c@x.com')"
                + ORDER);
    assertThat(compound.compound()).isTrue();
    assertThat(compound.afterId()).isEqualTo("07L'x");
    assertThat(compound.users()).isEqualTo(Set.of("a@x.com", "o'b\\c@x.com"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT Id FROM ApexLog WHERE StartTime >= 2024-06-05T11:00:00.000Z ORDER BY StartTime ASC,"
            + " Id ASC LIMIT 200",
        "StartTime >= 2024-06-05T11:00:00.000Z ORDER BY StartTime DESC, Id DESC LIMIT 200",
        "StartTime > 2024-06-05T11:00:00.000Z ORDER BY StartTime ASC, Id ASC LIMIT 200",
        "StartTime >= 2024-06-05T11:00:00.000Z AND LogUser.Username IN ('o'brien') ORDER BY"
            + " StartTime ASC, Id ASC LIMIT 200",
        "(StartTime > 2024-06-05T11:00:00.000Z OR (StartTime = 2024-06-05T12:00:00.000Z AND Id >"
            + " '07L')) ORDER BY StartTime ASC, Id ASC LIMIT 200",
      })
  @DisplayName("APX-1: any other query is a 400 MALFORMED_QUERY")
  void rejectsOtherShapes(String q) {
    String full = q.startsWith("SELECT") ? q : SELECT + q;
    assertThatThrownBy(() -> ApexLogEndpoints.parse(full))
        .isInstanceOfSatisfying(
            SoqlRejection.class,
            r -> {
              assertThat(r.status).isEqualTo(400);
              assertThat(r.errorCode).isEqualTo("MALFORMED_QUERY");
            });
  }

  @Test
  @DisplayName("APX-5: the generator is deterministic and LogLength is the body size")
  void generatorDeterministic() {
    ApexLogEndpoints a = new ApexLogEndpoints("60.0", 2000, java.time.InstantSource.system());
    ApexLogEndpoints b = new ApexLogEndpoints("60.0", 2000, java.time.InstantSource.system());
    Instant t = Instant.parse("2024-06-05T11:00:00Z");
    var la = a.generate(20, t, Duration.ZERO, List.of("u@x.com", "v@x.com"), 42);
    var lb = b.generate(20, t, Duration.ZERO, List.of("u@x.com", "v@x.com"), 42);
    for (int i = 0; i < 20; i++) {
      assertThat(la.get(i).body()).isEqualTo(lb.get(i).body());
      assertThat(la.get(i).logLength()).isEqualTo(la.get(i).body().length);
      assertThat(la.get(i).id()).hasSize(18).startsWith("07L");
    }
    assertThat(la.get(1).username()).isEqualTo("v@x.com");
    assertThat(la.get(0).id()).isLessThan(la.get(1).id());
  }

  @Test
  @DisplayName("APX-10: the sim parses the revisit listing and the Id IN fetch")
  void apx10_revisitShapes() throws Exception {
    var r =
        ApexLogQueries.parseAny(
            "SELECT Id, StartTime FROM ApexLog WHERE StartTime > 2024-06-05T11:00:00.000Z AND"
                + " StartTime < 2024-06-05T11:30:00.000Z AND LogUser.Username IN ('a@x.com')"
                + " ORDER BY StartTime DESC, Id DESC LIMIT 20000");
    assertThat(r)
        .isEqualTo(
            new ApexLogQueries.RevisitListing(
                Instant.parse("2024-06-05T11:00:00Z"),
                true,
                Instant.parse("2024-06-05T11:30:00Z"),
                Set.of("a@x.com"),
                20000));
    var b = ApexLogQueries.parseAny(SELECT + "Id IN ('07L1','07L\\'2')" + ORDER);
    assertThat(b).isEqualTo(new ApexLogQueries.ByIds(Set.of("07L1", "07L'2"), 200));
    assertThatThrownBy(
            () -> ApexLogQueries.parseAny("SELECT Id FROM ApexLog WHERE Id IN ('a') LIMIT 1"))
        .isInstanceOf(SoqlRejection.class);
  }
}
