package io.sf2loki.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.chaos.FaultCatalog.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One chaos run (SPEC FEAT-22): the {@link ChaosSchedule}'s steps against a {@link ChaosCluster},
 * then the liveness check and the conservation, duplicate and checkpoint checks. Every failure
 * carries the seed and the steps run so far.
 *
 * @param seed the schedule's seed
 * @param steps the most steps to run
 * @param duration stop starting steps after this long (null: no time bound)
 */
record ChaosRun(long seed, int steps, Duration duration) {
  /** Kill/restart of a replica, lease takeover and term build on a shared 2-core box. */
  static final Duration RECOVERY_LIMIT = ChaosCluster.TTL.plus(ChaosCluster.RENEW).plusSeconds(60);

  /** Both child JVMs starting cold, and the first leader's term. */
  static final Duration START_LIMIT = Duration.ofSeconds(90);

  /** Slack over two poll intervals for draining the lanes on a loaded CI box. */
  static final Duration LIVENESS_SLACK = Duration.ofSeconds(45);

  /** Re-sent entries a crash may cause: one batch per lane, plus the ELF-10 file carry. */
  static final long PER_CRASH = 2L * ChaosCluster.BATCH + ChaosCluster.MAX_FILE_ROWS;

  /** What a finished run measured. */
  record Report(
      long seed,
      int stepsRun,
      Map<Kind, Integer> faults,
      Map<Kind, Long> duplicatesByStep,
      int processStops,
      int leaderStops,
      int leaseChanges,
      long lokiStorms,
      Ledger.Result ledger,
      long duplicates,
      long duplicateAllowance,
      long maxDuplicatesOneCrashStep,
      Duration worstRecovery,
      Duration liveness,
      List<String> readiness,
      List<String> rewinds,
      List<String> violations,
      Duration elapsed) {
    @Override
    public String toString() {
      return String.format(
          "CHAOS REPORT seed=%d steps=%d elapsed=%ds%n  faults=%s%n  duplicates seen during"
              + " steps of each kind=%s%n  process stops=%d (leader"
              + " %d), lease changes (flaps)=%d, Loki storms=%d%n  generated=%d lost=%d missing=%d"
              + " dropped-and-counted=%s extra(uncollapsed re-sends)=%d%n  duplicates=%d"
              + " (bound %d per crash x %d + replay-fallback allowance %d), worst one crash"
              + " step=%d%n  worst recovery to ready=%dms, liveness after last fault=%dms,"
              + " readiness=%s%n  PS-15 fallback rewinds=%s%n  checkpoint violations=%s",
          seed,
          stepsRun,
          elapsed.toSeconds(),
          faults,
          duplicatesByStep,
          processStops,
          leaderStops,
          leaseChanges,
          lokiStorms,
          ledger.generated(),
          ledger.lost(),
          ledger.missing(),
          ledger.droppedByReason(),
          ledger.extra(),
          duplicates,
          PER_CRASH,
          processStops,
          duplicateAllowance,
          maxDuplicatesOneCrashStep,
          worstRecovery.toMillis(),
          liveness.toMillis(),
          readiness,
          rewinds,
          violations);
    }
  }

  /** Runs the schedule and returns the report; throws with the seed and steps on any failure. */
  Report execute() throws Exception {
    ChaosSchedule schedule = new ChaosSchedule(seed);
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

  private Report run(ChaosSchedule schedule, ChaosCluster c, long t0, int[] done) throws Exception {
    c.awaitLeader(START_LIMIT);
    Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
    Map<Kind, Long> dupsByKind = new EnumMap<>(Kind.class);
    Duration worst = Duration.ZERO;
    long maxCrashDups = 0;
    long storms = 0;
    Instant deadline = duration == null ? null : Instant.now().plus(duration);
    while (done[0] < steps && (deadline == null || Instant.now().isBefore(deadline))) {
      ChaosSchedule.Step s = schedule.step(done[0]);
      long dupsBefore = c.receiver().duplicatesDropped();
      FaultCatalog.inject(c, s);
      // new data while the fault holds: pushes, downloads and commits meet it
      c.generate(s.pubsubEvents(), s.objectRows(), s.elfType(), s.elfRows(), 1000L + s.index());
      c.hold(s.kind() == Kind.KILL9_IN_LOKI_OUTAGE ? s.hold().dividedBy(2) : s.hold());
      FaultCatalog.clear(c);
      Duration rec = c.awaitLeader(RECOVERY_LIMIT);
      worst = rec.compareTo(worst) > 0 ? rec : worst;
      c.scrapeAll();
      long dups = c.receiver().duplicatesDropped() - dupsBefore;
      if (s.kind().isProcessFault()) {
        maxCrashDups = Math.max(maxCrashDups, dups);
      }
      storms += s.kind().isLokiStorm() ? 1 : 0;
      counts.merge(s.kind(), 1, Integer::sum);
      dupsByKind.merge(s.kind(), dups, Long::sum);
      System.out.printf("chaos %s -> recovered in %dms, +%d duplicates%n", s, rec.toMillis(), dups);
      done[0]++;
    }
    Duration liveness = liveness(c);
    List<String> ready = c.awaitReadiness(RECOVERY_LIMIT);
    c.scrapeAll();
    Ledger.Result result = c.ledger().result(c.receiver().entries(), c.liveDrops());
    Report report =
        new Report(
            seed,
            done[0],
            counts,
            dupsByKind,
            c.processStops(),
            c.leaderStops(),
            c.monitor().epochChanges(),
            storms,
            result,
            c.receiver().duplicatesDropped(),
            c.ledger().duplicateAllowance(),
            maxCrashDups,
            worst,
            liveness,
            ready,
            c.monitor().rewinds(),
            c.monitor().violations(),
            Duration.ofNanos(System.nanoTime() - t0));
    System.out.println(report);
    check(report);
    return report;
  }

  /**
   * After the last fault: new data for every source; every source's checkpoint must reach it (the
   * lanes drained: commits follow pushes) within two poll intervals plus {@link #LIVENESS_SLACK}.
   */
  private static Duration liveness(ChaosCluster c) throws Exception {
    FaultCatalog.clear(c);
    c.awaitLeader(RECOVERY_LIMIT);
    long t0 = System.nanoTime();
    c.generate(50, 10, "Login", 50, 999_999L);
    Map<String, Comparable<Object>> target = new java.util.HashMap<>();
    for (String t : c.topics()) {
      byte[] id = c.pubsub().latestReplayId(t);
      target.put(
          "pubsub:" + t,
          CheckpointMonitor.position("pubsub:x", java.util.Base64.getEncoder().encodeToString(id)));
    }
    target.put(
        "eventlog_objects:LoginHistory",
        CheckpointMonitor.position(
            "eventlog_objects:x", "{\"last_ts\":\"" + c.newestObjectTs() + "\"}"));
    c.newestFiles()
        .forEach(
            (type, created) ->
                target.put(
                    "eventlogfile:" + type,
                    CheckpointMonitor.position(
                        "eventlogfile:x", "{\"last_created\":\"" + created + "\"}")));
    Duration limit = ChaosCluster.ELF_POLL.multipliedBy(2).plus(LIVENESS_SLACK);
    long deadline = t0 + limit.toNanos();
    List<String> behind = behind(c.monitor().sample(), target);
    while (!behind.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "sources still behind the newest data " + limit + " after the last fault: " + behind);
      }
      TimeUnit.MILLISECONDS.sleep(50); // real processes: poll the state file
      c.assertAlive();
      behind = behind(c.monitor().sample(), target);
    }
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  private static List<String> behind(
      Map<String, Comparable<Object>> now, Map<String, Comparable<Object>> target) {
    List<String> out = new ArrayList<>();
    target.forEach(
        (k, v) -> {
          Comparable<Object> p = now.get(k);
          if (p == null || p.compareTo(v) < 0) {
            out.add(k + "=" + p + " < " + v);
          }
        });
    return out;
  }

  private static void check(Report r) {
    assertThat(r.violations()).as("checkpoint or lease epoch moved backwards").isEmpty();
    assertThat(r.ledger().lost())
        .as("entries neither in the receiver nor counted as dropped")
        .isZero();
    assertThat(r.ledger().extra())
        .as("entries stored twice under a different timestamp or line")
        .isZero();
    assertThat(r.duplicates())
        .as("duplicates: at most one batch per lane (+ the ELF-10 file) per process stop")
        .isLessThanOrEqualTo(PER_CRASH * r.processStops() + r.duplicateAllowance());
    assertThat(r.readiness().getFirst()).isEqualTo("200 ready");
    assertThat(r.readiness().getLast()).isEqualTo("503 standby");
  }
}
