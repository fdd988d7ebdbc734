package io.sf2loki.app.run;

import io.sf2loki.app.health.Readiness;
import io.sf2loki.core.term.ActiveTerm;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The daemon's readiness degradations in SPEC OBS-8 order: a failing checkpoint store (STATE-16),
 * an egress pause (EGR), an org that failed its startup probe (ORG-7), failing Loki pushes ({@code
 * service.unready_after_sink_failing}), then per org in configuration order the API reserve
 * (OBS-21) and a source kind's own (PS-6: a Pub/Sub topic held on an undecodable event). Each is
 * computed on every readiness read.
 */
final class Degradations {
  private Degradations() {}

  /**
   * @param sinkThreshold {@code service.unready_after_sink_failing}; zero turns the sink check off
   * @param orgs the org assemblies, empty until they are built
   * @param orgAuth the ORG-7 detail (multi-org), empty until the probe ran and in single-org
   */
  static void register(
      Readiness readiness,
      ActiveTerm activeTerm,
      Duration sinkThreshold,
      Supplier<List<OrgAssembly>> orgs,
      Supplier<Optional<String>> orgAuth) {
    readiness.addDegradation(
        () -> activeTerm.storeFailingFor().map(d -> "degraded: checkpoint store failing"));
    readiness.addDegradation(activeTerm::egressPausedReason);
    readiness.addDegradation(orgAuth); // ORG-7: degraded: org <name> auth failing
    readiness.addDegradation(() -> sinkFailing(activeTerm, sinkThreshold));
    readiness.addDegradation(() -> first(orgs.get(), OrgAssembly::apiReserve));
    readiness.addDegradation(() -> first(orgs.get(), OrgAssembly::sourceDegradation));
  }

  private static Optional<String> sinkFailing(ActiveTerm activeTerm, Duration threshold) {
    if (threshold.isZero()) {
      return Optional.empty();
    }
    // measured on the monotonic ticker: a wall-clock step neither freezes nor rushes it
    Optional<Duration> failingFor = activeTerm.sinkFailingFor();
    if (failingFor.isEmpty()) {
      return Optional.empty();
    }
    Duration failing = failingFor.get();
    if (failing.compareTo(threshold) <= 0) {
      return Optional.empty();
    }
    long minutes = failing.toMinutes();
    String amount = minutes >= 1 ? minutes + "m" : failing.toSeconds() + "s";
    return Optional.of("degraded: loki pushes failing for " + amount);
  }

  private static Optional<String> first(
      List<OrgAssembly> orgs, Function<OrgAssembly, Optional<String>> degradation) {
    for (OrgAssembly org : orgs) {
      Optional<String> d = degradation.apply(org);
      if (d.isPresent()) {
        return d;
      }
    }
    return Optional.empty();
  }
}
