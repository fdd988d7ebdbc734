package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.health.Readiness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgLeadershipTest {
  private final Readiness readiness = new Readiness();
  private final List<Double> leader = new ArrayList<>();
  private final OrgLeadership orgs = new OrgLeadership(readiness, leader::add);

  @Test
  @DisplayName(
      "HA-31: ready from the first org term while one runs; one org's loss keeps the replica ready;"
          + " standby (503) and sf2loki_leader 0 once the last one ended")
  void ha31_readyWhileAnyOrgTermRuns() {
    readiness.set(Readiness.State.STANDBY); // the daemon, before the coordinator runs
    assertThat(readiness.evaluate().status()).isEqualTo(503);

    orgs.started("eu");
    orgs.started("us");
    assertThat(readiness.evaluate()).isEqualTo(new Readiness.Answer(200, "ready"));
    assertThat(orgs.running()).containsExactlyInAnyOrder("eu", "us");

    orgs.ended("eu"); // eu handed over (HA-28): its term ended, then the loss path's standby
    orgs.standby();
    assertThat(readiness.evaluate()).isEqualTo(new Readiness.Answer(200, "ready"));
    assertThat(orgs.running()).containsExactly("us");

    orgs.ended("us");
    orgs.standby();
    assertThat(readiness.evaluate()).isEqualTo(new Readiness.Answer(503, "standby"));
    assertThat(orgs.running()).isEmpty();
    assertThat(leader).containsExactly(1.0, 1.0, 0.0);
  }
}
