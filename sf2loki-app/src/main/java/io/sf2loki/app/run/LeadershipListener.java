package io.sf2loki.app.run;

import io.sf2loki.app.health.Readiness;
import io.sf2loki.core.term.TermListener;
import java.util.List;
import java.util.function.Supplier;

/**
 * The daemon's {@link TermListener} (SPEC HA-1, OBS-8, OBS-12): readiness follows the terms (ready
 * while leading, standby while following), and each org's limits poller runs only while leading.
 * Called on the term thread.
 */
final class LeadershipListener implements TermListener {
  private final Readiness readiness;
  private final Supplier<List<OrgAssembly>> orgs;

  LeadershipListener(Readiness readiness, Supplier<List<OrgAssembly>> orgs) {
    this.readiness = readiness;
    this.orgs = orgs;
  }

  @Override
  public void termStarted() {
    readiness.set(Readiness.State.READY);
    orgs.get().forEach(OrgAssembly::leading); // OBS-12: only while leading
  }

  @Override
  public void termEnded() {
    orgs.get().forEach(OrgAssembly::notLeading);
  }

  @Override
  public void standby() {
    readiness.set(Readiness.State.STANDBY);
  }
}
