package io.sf2loki.app.run;

import io.sf2loki.app.health.Readiness;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.DoubleConsumer;

/**
 * Which org terms run on this replica under {@code coordinate.per_org}, and what follows from it
 * (SPEC HA-31): readiness is {@code ready} from the start of the first org term while at least one
 * runs and {@code standby} once the last one ended; the unlabelled {@code sf2loki_leader} is 1
 * while at least one runs. Thread-safe: the org terms' threads call it; guarded by {@code this}.
 */
final class OrgLeadership {
  private final Readiness readiness;
  private final DoubleConsumer leader;
  private final Set<String> running = new LinkedHashSet<>();

  /**
   * @param readiness the daemon's readiness
   * @param leader the unlabelled {@code sf2loki_leader} gauge
   */
  OrgLeadership(Readiness readiness, DoubleConsumer leader) {
    this.readiness = readiness;
    this.leader = leader;
  }

  /** Org {@code org}'s term started (TermListener#termStarted). */
  synchronized void started(String org) {
    running.add(org);
    leader.accept(1);
    readiness.set(Readiness.State.READY);
  }

  /** Org {@code org}'s term ended (its threads are done). */
  synchronized void ended(String org) {
    running.remove(org);
  }

  /** Org {@code org}'s lease was lost or handed over: standby when no org term runs any more. */
  synchronized void standby() {
    if (running.isEmpty()) {
      leader.accept(0);
      readiness.set(Readiness.State.STANDBY);
    }
  }

  /** The orgs whose terms run now (OBS-38). */
  synchronized Set<String> running() {
    return Set.copyOf(running);
  }
}
