package io.sf2loki.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.chaos.FaultCatalog.Cause;
import io.sf2loki.app.chaos.FaultCatalog.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One chaos run (SPEC FEAT-22): the {@link ChaosSchedule}'s steps against a {@link ChaosCluster},
 * then the liveness check and the conservation, duplicate and checkpoint checks. Every step ends
 * with the sources caught up (every checkpoint covers the data generated so far), so the duplicates
 * the receiver collapsed during a step are that step's fault's doing: a crash (process stop, or a
 * lease lost to the other replica) may re-send one batch per lane plus one ELF-10 file; deliberate
 * re-sends (PS-15 replay fallback, pushes stored after the sink's timeout, SINK-10 splits) are
 * counted apart. Every failure carries the seed and the steps run so far.
 *
 * @param seed the schedule's seed
 * @param steps the most steps to run
 * @param duration stop starting steps after this long (null: no time bound)
 * @param until stop starting steps once these counts are reached (null: run steps or duration)
 * @param stepSlack added to each step's recovery and catch-up limits (a long run on a machine
 *     shared with builds); the final liveness check after the last fault never gets it
 */
record ChaosRun(long seed, int steps, Duration duration, Targets until, Duration stepSlack) {
  /**
   * The long run's targets (issue 17): process stops, Loki storms and leadership changes.
   *
   * @param stops process stops (kill -9 and SIGTERM)
   * @param storms injected Loki storms
   * @param flaps lease epochs seen (leadership changes)
   */
  record Targets(int stops, int storms, int flaps) {
    /** {@code stops=200,storms=50,flaps=50} (any subset; a missing key is 0). */
    static Targets parse(String text) {
      Map<String, Integer> m = new TreeMap<>();
      for (String kv : text.split(",")) {
        String[] p = kv.trim().split("=", 2);
        if (p.length != 2) {
          throw new IllegalArgumentException("chaos.until: expected key=count, got " + kv);
        }
        m.put(p[0].trim(), Integer.parseInt(p[1].trim()));
      }
      Targets t =
          new Targets(
              m.getOrDefault("stops", 0), m.getOrDefault("storms", 0), m.getOrDefault("flaps", 0));
      m.keySet().removeAll(List.of("stops", "storms", "flaps"));
      if (!m.isEmpty()) {
        throw new IllegalArgumentException("chaos.until: unknown keys " + m.keySet());
      }
      return t;
    }

    boolean reached(int stops, long storms, int flaps) {
      return stops >= this.stops && storms >= this.storms && flaps >= this.flaps;
    }
  }

  /** Both child JVMs starting cold, and the first leader's term, on a shared 2-core box. */
  static final Duration START_LIMIT = Duration.ofSeconds(150);

  /**
   * Kill/restart, lease takeover and term build: as long as a cold start, since two close stops
   * (the standby, then the leader) may leave no warm replica.
   */
  static final Duration RECOVERY_LIMIT = START_LIMIT.plus(ChaosCluster.TTL);

  /** Slack over two poll intervals for draining the lanes on a loaded CI box. */
  static final Duration LIVENESS_SLACK = Duration.ofSeconds(45);

  /** After a fault: every source caught up within two poll intervals plus the slack. */
  static final Duration CATCH_UP_LIMIT = ChaosCluster.ELF_POLL.multipliedBy(2).plus(LIVENESS_SLACK);

  /** Re-sent entries a crash may cause: one batch per lane, plus the ELF-10 file carry. */
  static final long PER_CRASH = 2L * ChaosCluster.BATCH + ChaosCluster.MAX_FILE_ROWS;

  /** Cause label of the budget housekeeping jump (not a scheduled step). */
  static final String HOUSEKEEPING = "midnight jump (budget housekeeping)";

  /**
   * The duplicates of one step, attributed.
   *
   * @param step the step's description
   * @param cause what re-sent them: the fault, or {@code lease lost during <fault>}
   * @param crashes process stops and lost leases in the step
   * @param duplicates entries the receiver collapsed during the step
   * @param bound most duplicates the step may cause ({@link Long#MAX_VALUE}: not bounded here)
   */
  record Attribution(String step, String cause, int crashes, long duplicates, long bound) {}

  /** Runs the schedule and returns the report; throws with the seed and steps on any failure. */
  ChaosReport execute() throws Exception {
    ChaosSchedule schedule = new ChaosSchedule(seed, duration != null || until != null);
    System.out.println(schedule.describe(Math.min(steps, 40)));
    long t0 = System.nanoTime();
    int[] done = {0};
    try (ChaosCluster c = ChaosCluster.start()) {
      try {
        return run(schedule, c, t0, done);
      } catch (Exception | AssertionError e) {
        throw new AssertionError(
            "chaos run failed at step "
                + done[0]
                + "\n"
                + schedule.describe(done[0] + 1)
                + c.logs()
                + "\n"
                + e,
            e);
      }
    }
  }

  private ChaosReport run(ChaosSchedule schedule, ChaosCluster c, long t0, int[] done)
      throws Exception {
    c.awaitLeader(START_LIMIT);
    // the initial backlog and a little new data on every source, so step 0 starts drained
    c.generate(10, 5, "Login", 10, 1, 999L);
    c.awaitCaughtUp(START_LIMIT);
    c.scrapeAll();
    ChaosReport.Builder r = new ChaosReport.Builder(seed);
    Instant deadline = duration == null ? null : Instant.now().plus(duration);
    while (done[0] < steps
        && (deadline == null || Instant.now().isBefore(deadline))
        && !targetsReached(c, r)) {
      ChaosSchedule.Step s = schedule.step(done[0]);
      if (c.clock().isPresent() && c.budgetUsed() > ChaosCluster.DAILY_BUDGET / 2) {
        r.attribute(housekeeping(c, r));
      }
      r.attribute(step(c, s, r));
      done[0]++;
      if (done[0] % 10 == 0) {
        System.out.printf(
            "chaos progress: %d steps, %ds, process stops %d, Loki storms %d, lease changes %d%n",
            done[0],
            Duration.ofNanos(System.nanoTime() - t0).toSeconds(),
            c.processStops(),
            r.lokiStorms(),
            c.monitor().epochChanges());
      }
    }
    FaultCatalog.clear(c);
    c.awaitLeader(RECOVERY_LIMIT);
    c.generate(50, 10, "Login", 50, 3, 999_999L);
    r.liveness(c.awaitCaughtUp(CATCH_UP_LIMIT));
    List<String> ready = c.awaitReadiness(RECOVERY_LIMIT);
    c.scrapeAll();
    ChaosReport report = r.finish(c, done[0], ready, Duration.ofNanos(System.nanoTime() - t0));
    System.out.println(report);
    check(report);
    return report;
  }

  private boolean targetsReached(ChaosCluster c, ChaosReport.Builder r) {
    return until != null
        && until.reached(c.processStops(), r.lokiStorms(), c.monitor().epochChanges());
  }

  /** Injects, generates, holds, clears, waits for a ready replica and caught-up sources. */
  private Attribution step(ChaosCluster c, ChaosSchedule.Step s, ChaosReport.Builder r)
      throws Exception {
    long dupsBefore = c.receiver().duplicatesDropped();
    long stalledBefore = c.receiver().faults().stalledRequests();
    long allowanceBefore = c.ledger().duplicateAllowance();
    int epochsBefore = c.monitor().epochChanges();
    boolean injected = FaultCatalog.inject(c, s);
    r.fault(s.kind(), injected);
    if (!injected) {
      System.out.printf("chaos %s -> SKIPPED (not possible here, see above)%n", s);
    }
    // new data while the fault holds: pushes, downloads and commits meet it
    c.generate(
        s.pubsubEvents(),
        s.objectRows(),
        s.elfType(),
        s.elfRows(),
        s.apexLogs(),
        1000L + s.index());
    c.hold(holdFor(s));
    long cleared = System.nanoTime();
    FaultCatalog.clear(c, s, injected);
    Duration extra =
        stepSlack.plus(
            s.kind() == Kind.CLOCK_MIDNIGHT ? ChaosCluster.PAUSE_RECHECK : Duration.ZERO);
    Duration rec = c.awaitLeader(RECOVERY_LIMIT.plus(extra));
    c.awaitCaughtUp(CATCH_UP_LIMIT.plus(extra));
    Duration caughtUp = Duration.ofNanos(System.nanoTime() - cleared);
    c.scrapeAll();
    r.recovery(rec, caughtUp);
    long dups = c.receiver().duplicatesDropped() - dupsBefore;
    int leases = c.monitor().epochChanges() - epochsBefore;
    int crashes = s.kind().isProcessFault() ? Math.max(s.kills(), leases) : leases;
    long bound = PER_CRASH * crashes;
    String cause = s.kind().label();
    switch (s.kind().cause()) {
      case CRASH -> {}
      case DELIBERATE ->
          bound =
              switch (s.kind()) {
                case PUBSUB_REPLAY_CORRUPTED ->
                    bound + c.ledger().duplicateAllowance() - allowanceBefore;
                case LOKI_STALL ->
                    bound
                        + (c.receiver().faults().stalledRequests() - stalledBefore)
                            * ChaosCluster.BATCH;
                default -> Long.MAX_VALUE; // SINK-10 re-send after a partial acceptance
              };
      case OTHER -> {
        bound += PER_CRASH; // a dropped stream or a retried push: the in-flight batch per lane
        cause = leases > 0 ? "lease lost during " + cause : cause;
      }
    }
    System.out.printf(
        "chaos %s -> ready in %dms, caught up %dms after the fault cleared, +%d duplicates"
            + " (crashes %d, lease changes %d)%n",
        s, rec.toMillis(), caughtUp.toMillis(), dups, crashes, leases);
    return new Attribution(s.toString(), cause, crashes, dups, bound);
  }

  /** A {@link Kind#LOKI_STALL} holds long enough for pushes to time out at least once. */
  private static Duration holdFor(ChaosSchedule.Step s) {
    return switch (s.kind()) {
      case KILL9_IN_LOKI_OUTAGE -> s.hold().dividedBy(2);
      case LOKI_STALL -> s.hold().plus(ChaosCluster.REQUEST_TIMEOUT.multipliedBy(2));
      default -> s.hold();
    };
  }

  /** Keeps the day's budget count low between clock steps: a jump over the next UTC midnight. */
  private Attribution housekeeping(ChaosCluster c, ChaosReport.Builder r) throws Exception {
    long dupsBefore = c.receiver().duplicatesDropped();
    int epochsBefore = c.monitor().epochChanges();
    long t0 = System.nanoTime();
    c.jumpPastMidnight();
    Duration rec = c.awaitLeader(RECOVERY_LIMIT.plus(ChaosCluster.PAUSE_RECHECK).plus(stepSlack));
    c.awaitCaughtUp(CATCH_UP_LIMIT.plus(ChaosCluster.PAUSE_RECHECK).plus(stepSlack));
    c.scrapeAll();
    r.recovery(rec, Duration.ofNanos(System.nanoTime() - t0));
    r.housekeepingJump();
    long dups = c.receiver().duplicatesDropped() - dupsBefore;
    int leases = c.monitor().epochChanges() - epochsBefore;
    System.out.printf(
        "chaos %s -> +%d duplicates (lease changes %d)%n", HOUSEKEEPING, dups, leases);
    return new Attribution(
        HOUSEKEEPING,
        leases > 0 ? "lease lost during " + HOUSEKEEPING : HOUSEKEEPING,
        leases,
        dups,
        PER_CRASH * leases + PER_CRASH);
  }

  private static void check(ChaosReport r) {
    assertThat(r.violations()).as("checkpoint or lease epoch moved backwards").isEmpty();
    assertThat(r.ledger().lost())
        .as("entries neither in the receiver nor counted as dropped")
        .isZero();
    assertThat(r.ledger().extra())
        .as("entries stored twice under a different timestamp or line")
        .isZero();
    List<Attribution> over = new ArrayList<>();
    for (Attribution a : r.attributions()) {
      if (a.duplicates() > a.bound()) {
        over.add(a);
      }
    }
    assertThat(over)
        .as(
            "steps whose duplicates exceed one batch per lane (+ one ELF-10 file) per crash, plus"
                + " their deliberate re-sends")
        .isEmpty();
    assertThat(r.readiness().getFirst()).isEqualTo("200 ready");
    assertThat(r.readiness().getLast()).isEqualTo("503 standby");
  }

  /** Sums per cause and the per-crash figures of a list of attributions. */
  static Map<String, Long> byCause(List<Attribution> list) {
    Map<String, Long> out = new TreeMap<>();
    for (Attribution a : list) {
      out.merge(a.cause(), a.duplicates(), Long::sum);
    }
    return out;
  }

  /** Duplicates per crash of the steps whose re-sends are all crash-caused. */
  static List<Double> perCrash(List<Attribution> list) {
    List<Double> out = new ArrayList<>();
    for (Attribution a : list) {
      if (a.crashes() > 0 && a.bound() != Long.MAX_VALUE && !isDeliberate(a)) {
        out.add((double) a.duplicates() / a.crashes());
      }
    }
    return out;
  }

  private static boolean isDeliberate(Attribution a) {
    for (Kind k : Kind.values()) {
      if (k.cause() == Cause.DELIBERATE && a.cause().equals(k.label())) {
        return true;
      }
    }
    return false;
  }

  static Map<Kind, Integer> newCounts() {
    return new EnumMap<>(Kind.class);
  }
}
