package io.sf2loki.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Smoke test only: the org-isolation harness wiring works in its short mode (no timing claims). */
class OrgIsolationSmokeTest {
  @Test
  @DisplayName(
      "ORG-1, ORG-3, ORG-6: short run of the isolation bench: every event of both orgs arrives"
          + " once with its org and sf_org_id; beta is held back while its token endpoint fails"
          + " and catches up after")
  void shortRunLosesNothing() throws Exception {
    OrgIsolation.Result r =
        OrgIsolation.run(
            Map.of(
                "daemon", "in-process",
                "rate", "50",
                "warmup-seconds", "1",
                "baseline-seconds", "2",
                "fail-seconds", "4",
                "after-seconds", "2",
                "drain-seconds", "120"));
    assertThat(r.passed()).as("%s", r).isTrue();
    assertThat(r.alphaLost()).isZero();
    assertThat(r.betaLost()).isZero();
    assertThat(r.wrongOrgId()).isZero();
    assertThat(r.alphaFailure().published()).isPositive();
    assertThat(r.alphaFailure().received()).isEqualTo(r.alphaFailure().published());
    assertThat(r.betaDeliveredDuringFailure()).isLessThan(r.betaPublishedDuringFailure());
    assertThat(r.betaCatchUpSeconds()).isNotNaN();
  }
}
