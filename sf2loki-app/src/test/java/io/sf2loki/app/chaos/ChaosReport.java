package io.sf2loki.app.chaos;

import io.sf2loki.app.chaos.ChaosRun.Attribution;
import io.sf2loki.app.chaos.FaultCatalog.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a finished chaos run measured (SPEC FEAT-22); {@link #toString()} is the {@code CHAOS
 * REPORT} block a run prints.
 *
 * @param seed the schedule's seed
 * @param stepsRun steps run
 * @param faults injected faults per kind
 * @param skipped steps whose fault could not be injected here, per kind
 * @param processStops process stops (kill -9 and SIGTERM)
 * @param leaderStops of them, stops of the leader
 * @param leaseChanges new lease epochs seen (leadership changes)
 * @param housekeepingJumps midnight jumps that kept the budget count low between clock steps
 * @param budgetPausesEnded budget pauses met outside a clock step
 * @param replayFallbacks {@code sf2loki_pubsub_replay_fallbacks_total} over process lifetimes
 * @param ledger conservation
 * @param duplicates entries the receiver collapsed in the whole run
 * @param attributions per step: duplicates, cause, crashes, bound
 * @param worstRecovery longest fault-cleared → a replica ready
 * @param worstCatchUp longest fault-cleared → every source caught up
 * @param liveness last fault → every source caught up with data generated after it
 * @param readiness both replicas' {@code /readyz} at the end, leader first
 * @param rewinds PS-15 fallback rewinds seen by the checkpoint monitor
 * @param leaseRaces lease-file writes of a contender overwritten by the incumbent (HA-10)
 * @param violations checkpoints or lease epochs that moved backwards
 * @param elapsed the run's wall time
 */
record ChaosReport(
    long seed,
    int stepsRun,
    Map<Kind, Integer> faults,
    Map<Kind, Integer> skipped,
    int processStops,
    int leaderStops,
    int leaseChanges,
    int housekeepingJumps,
    int budgetPausesEnded,
    long replayFallbacks,
    Ledger.Result ledger,
    long duplicates,
    List<Attribution> attributions,
    Duration worstRecovery,
    Duration worstCatchUp,
    Duration liveness,
    List<String> readiness,
    List<String> rewinds,
    List<String> leaseRaces,
    List<String> violations,
    Duration elapsed) {

  int count(Kind k) {
    return faults.getOrDefault(k, 0);
  }

  /** {@code kill -9}s, including those during a Loki outage. */
  int kill9() {
    return count(Kind.KILL9) + count(Kind.KILL9_IN_LOKI_OUTAGE);
  }

  long lokiStorms() {
    return faults.entrySet().stream()
        .filter(e -> e.getKey().isLokiStorm())
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  @Override
  public String toString() {
    List<Double> perCrash = ChaosRun.perCrash(attributions);
    double max = perCrash.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    double mean = perCrash.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    long crashes = attributions.stream().mapToLong(Attribution::crashes).sum();
    return String.format(
        "CHAOS REPORT seed=%d steps=%d elapsed=%ds%n"
            + "  faults=%s%n  skipped (not possible here)=%s%n"
            + "  process stops=%d (kill -9 steps %d, SIGTERM %d; of the leader %d), lease changes"
            + " (flaps)=%d, Loki storms=%d, midnight jumps: clock steps %d + budget housekeeping %d,"
            + " budget pauses outside clock steps=%d, PS-15 replay fallbacks=%d%n"
            + "  generated=%d lost=%d missing=%d dropped-and-counted=%s extra(uncollapsed"
            + " re-sends)=%d%n"
            + "  duplicates=%d; crashes=%d, per crash max=%.0f mean=%.1f (bound %d); by cause=%s%n"
            + "  worst recovery to ready=%dms, worst fault-cleared to caught-up=%dms, liveness after"
            + " the last fault=%dms, readiness=%s%n"
            + "  PS-15 fallback rewinds=%s%n  HA-10 lease races lost by a contender=%s%n"
            + "  checkpoint violations=%s",
        seed,
        stepsRun,
        elapsed.toSeconds(),
        faults,
        skipped,
        processStops,
        kill9(),
        count(Kind.SIGTERM),
        leaderStops,
        leaseChanges,
        lokiStorms(),
        count(Kind.CLOCK_MIDNIGHT),
        housekeepingJumps,
        budgetPausesEnded,
        replayFallbacks,
        ledger.generated(),
        ledger.lost(),
        ledger.missing(),
        ledger.droppedByReason(),
        ledger.extra(),
        duplicates,
        crashes,
        max,
        mean,
        ChaosRun.PER_CRASH,
        ChaosRun.byCause(attributions),
        worstRecovery.toMillis(),
        worstCatchUp.toMillis(),
        liveness.toMillis(),
        readiness,
        rewinds,
        leaseRaces,
        violations);
  }

  /** Collects a run's figures step by step. Not thread-safe: the run's thread owns it. */
  static final class Builder {
    private final long seed;
    private final Map<Kind, Integer> faults = ChaosRun.newCounts();
    private final Map<Kind, Integer> skipped = ChaosRun.newCounts();
    private final List<Attribution> attributions = new ArrayList<>();
    private Duration worstRecovery = Duration.ZERO;
    private Duration worstCatchUp = Duration.ZERO;
    private Duration liveness = Duration.ZERO;
    private int housekeepingJumps;

    Builder(long seed) {
      this.seed = seed;
    }

    void fault(Kind k, boolean injected) {
      (injected ? faults : skipped).merge(k, 1, Integer::sum);
    }

    void attribute(Attribution a) {
      attributions.add(a);
    }

    void recovery(Duration toReady, Duration toCaughtUp) {
      worstRecovery = toReady.compareTo(worstRecovery) > 0 ? toReady : worstRecovery;
      worstCatchUp = toCaughtUp.compareTo(worstCatchUp) > 0 ? toCaughtUp : worstCatchUp;
    }

    void housekeepingJump() {
      housekeepingJumps++;
    }

    /** Loki storms injected so far (the {@link Kind#isLokiStorm()} kinds). */
    long lokiStorms() {
      return faults.entrySet().stream()
          .filter(e -> e.getKey().isLokiStorm())
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    void liveness(Duration d) {
      liveness = d;
    }

    ChaosReport finish(ChaosCluster c, int steps, List<String> readiness, Duration elapsed) {
      return new ChaosReport(
          seed,
          steps,
          faults,
          skipped,
          c.processStops(),
          c.leaderStops(),
          c.monitor().epochChanges(),
          housekeepingJumps,
          c.budgetPausesEnded(),
          c.replayFallbacks(),
          c.ledger().result(c.receiver().entries(), c.liveDrops()),
          c.receiver().duplicatesDropped(),
          List.copyOf(attributions),
          worstRecovery,
          worstCatchUp,
          liveness,
          readiness,
          c.monitor().rewinds(),
          c.monitor().leaseRaces(),
          c.monitor().violations(),
          elapsed);
    }
  }
}
