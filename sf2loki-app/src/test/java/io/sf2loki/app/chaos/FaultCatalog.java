package io.sf2loki.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * The faults a {@link ChaosSchedule} draws from (SPEC FEAT-22): each one is injected, held for the
 * step's {@code hold} and cleared. Process faults act on one of the two daemon processes; the
 * others use the fault APIs of the simulators ({@code LokiFaultSchedule}, {@code FaultSchedule},
 * {@code PubSubFaults}).
 */
final class FaultCatalog {
  /** Marker of the LoginHistory rows a {@link Kind#LOKI_400} storm rejects (one in four). */
  static final String REJECTED = "Invalid Password";

  /** Events per topic and burst of {@link Kind#CLOCK_MIDNIGHT} until the budget pauses. */
  private static final int BURST_EVENTS = 1000;

  private static final int PAUSE_ROUNDS = 20;

  private FaultCatalog() {}

  /**
   * Why a fault may re-send entries: a {@code CRASH} stops a process (≤ one batch per lane and the
   * ELF-10 file per crash), a {@code DELIBERATE} fault re-sends by design (PS-15 replay fallback, a
   * push stored after the sink's timeout, SINK-10's split after a partial acceptance), any other
   * fault re-sends nothing beyond a lane's in-flight batch.
   */
  enum Cause {
    CRASH,
    DELIBERATE,
    OTHER
  }

  /**
   * A fault, its printed name, its draw weight (tuned so a 35-minute {@code -Pchaos} run reaches ≥
   * 200 kills, mostly {@code kill -9}, ≥ 50 Loki storms and ≥ 50 leadership changes) and why it may
   * re-send entries.
   */
  enum Kind {
    KILL9("kill -9", 60, Cause.CRASH),
    SIGTERM("SIGTERM", 15, Cause.CRASH),
    KILL9_IN_LOKI_OUTAGE("kill -9 during a Loki 503 outage", 12, Cause.CRASH),
    LOKI_429("Loki 429 storm (Retry-After 1s)", 3, Cause.OTHER),
    LOKI_5XX("Loki 5xx storm", 3, Cause.OTHER),
    LOKI_400(
        "Loki 400 storm (per-entry rejection of lines with '" + REJECTED + "')",
        2,
        Cause.DELIBERATE),
    LOKI_400_WIDE(
        "Loki request-wide 400 storm (SINK-10 split-storm guard: retried)", 1, Cause.OTHER),
    LOKI_413("Loki 413 storm (512-byte body limit)", 2, Cause.OTHER),
    LOKI_STALL(
        "Loki stall (pushes held past the sink's timeout, then stored)", 2, Cause.DELIBERATE),
    SF_5XX("Salesforce 5xx on query and log file download", 2, Cause.OTHER),
    SF_401("Salesforce token expiry (401)", 2, Cause.OTHER),
    SF_REQUEST_LIMIT("Salesforce 403 REQUEST_LIMIT_EXCEEDED", 2, Cause.OTHER),
    PUBSUB_UNAVAILABLE(
        "Pub/Sub UNAVAILABLE (streams dropped, resubscribe refused)", 2, Cause.OTHER),
    PUBSUB_REPLAY_CORRUPTED("Pub/Sub replayid.corrupted on resubscribe", 1, Cause.DELIBERATE),
    PUBSUB_STALL("Pub/Sub stream stall (no events, no keepalives)", 2, Cause.OTHER),
    STATE_DISK_FULL("state disk full (ENOSPC)", 1, Cause.OTHER),
    STATE_READ_ONLY("state disk read-only (EROFS)", 1, Cause.OTHER),
    CLOCK_MIDNIGHT(
        "wall clock jumps over a UTC midnight while the daily egress budget pauses pushes",
        2,
        Cause.OTHER);

    private final String label;
    private final int weight;
    private final Cause cause;

    Kind(String label, int weight, Cause cause) {
      this.label = label;
      this.weight = weight;
      this.cause = cause;
    }

    Cause cause() {
      return cause;
    }

    String label() {
      return label;
    }

    int weight() {
      return weight;
    }

    /** The draw weight; a long run doubles the Loki storms' (issue 17 asks for ≥ 50 storms). */
    int weight(boolean longRun) {
      return longRun && isLokiStorm() && this != KILL9_IN_LOKI_OUTAGE ? 2 * weight : weight;
    }

    boolean isProcessFault() {
      return cause == Cause.CRASH;
    }

    boolean isLokiStorm() {
      return name().startsWith("LOKI_") || this == KILL9_IN_LOKI_OUTAGE;
    }
  }

  /**
   * Injects {@code step}'s fault; process faults return once the stopped process was restarted.
   *
   * @return false when the fault cannot be injected here (no root for the tmpfs, no libfaketime):
   *     the step then only generates data
   */
  static boolean inject(ChaosCluster c, ChaosSchedule.Step step) throws Exception {
    switch (step.kind()) {
      case KILL9 -> {
        for (int k = 0; k < step.kills(); k++) {
          if (k > 0) {
            c.hold(step.hold().dividedBy(step.kills())); // a crash loop: whoever holds the role now
          }
          c.stopAndRestart(step.leader(), true);
        }
      }
      case SIGTERM -> c.stopAndRestart(step.leader(), false);
      case KILL9_IN_LOKI_OUTAGE -> {
        c.receiver().faults().add(LokiFault.status(503).untilCleared());
        c.hold(step.hold().dividedBy(2));
        c.stopAndRestart(true, true);
      }
      case LOKI_429 ->
          c.receiver()
              .faults()
              .add(LokiFault.tooManyRequests(Duration.ofSeconds(1)).untilCleared());
      case LOKI_5XX ->
          c.receiver()
              .faults()
              .add(LokiFault.status(500 + step.index() % 4).untilCleared()); // 500..503
      case LOKI_400 -> c.receiver().faults().rejectLinesContaining(REJECTED);
      case LOKI_400_WIDE -> c.receiver().faults().add(LokiFault.status(400).untilCleared());
      case LOKI_413 -> c.receiver().faults().maxBodyBytes(512);
      case SF_5XX -> {
        c.org().faults().add(SimEndpoint.QUERY, Fault.status(503).untilCleared());
        c.org().faults().add(SimEndpoint.LOGFILE, Fault.status(500).untilCleared());
      }
      case SF_401 -> c.org().expireAllTokens();
      case SF_REQUEST_LIMIT ->
          c.org()
              .faults()
              .add(
                  SimEndpoint.QUERY,
                  Fault.salesforceError(
                          403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded.")
                      .untilCleared());
      case PUBSUB_UNAVAILABLE -> {
        for (String topic : c.topics()) {
          c.pubsub().faults().failNextSubscribe(topic, Status.Code.UNAVAILABLE);
          c.pubsub().faults().failNextSubscribe(topic, Status.Code.UNAVAILABLE);
          c.pubsub().faults().dropOpenStreams(topic, Status.Code.UNAVAILABLE);
        }
      }
      case PUBSUB_REPLAY_CORRUPTED -> {
        String topic = c.topics().get(step.index() % c.topics().size());
        c.expectReplayFallback(topic);
        c.pubsub()
            .faults()
            .failNextSubscribe(topic, Status.Code.INVALID_ARGUMENT, SimPubSub.REPLAY_CORRUPTED);
        c.pubsub().faults().dropOpenStreams(topic, Status.Code.UNAVAILABLE);
      }
      case PUBSUB_STALL -> c.topics().forEach(t -> c.pubsub().faults().silence(t));
      case LOKI_STALL -> c.receiver().faults().stall(ChaosCluster.REQUEST_TIMEOUT.multipliedBy(3));
      case STATE_DISK_FULL -> {
        if (c.disk().isEmpty()) {
          return false;
        }
        assertThat(c.disk().get().fill()).as("filler bytes").isPositive();
      }
      case STATE_READ_ONLY -> {
        if (c.disk().isEmpty()) {
          return false;
        }
        c.disk().get().makeReadOnly();
      }
      case CLOCK_MIDNIGHT -> {
        if (c.clock().isEmpty()) {
          return false;
        }
        return pauseBeforeMidnight(c);
      }
    }
    return true;
  }

  /**
   * Jumps the daemons' clock forward to 30 s before a UTC midnight (a new day: the budget count
   * restarts), then publishes until the leader reports the EGR-8 budget pause.
   */
  private static boolean pauseBeforeMidnight(ChaosCluster c) throws Exception {
    FakeClock clock = c.clock().orElseThrow();
    Instant target = clock.nextMidnight().minusSeconds(30);
    if (!target.isAfter(clock.now().plusSeconds(1))) {
      target = target.plus(Duration.ofDays(1));
    }
    clock.jumpTo(target);
    for (int round = 0; round < PAUSE_ROUNDS; round++) {
      c.publish(BURST_EVENTS);
      long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      do {
        if (c.budgetPaused()) {
          return true;
        }
        TimeUnit.MILLISECONDS.sleep(100); // real processes: poll their health servers
      } while (System.nanoTime() < until);
    }
    throw new AssertionError(
        "the daily egress budget never paused pushes after "
            + PAUSE_ROUNDS * BURST_EVENTS
            + " events per topic");
  }

  /** Clears {@code step}'s fault and every simulator fault. */
  static void clear(ChaosCluster c, ChaosSchedule.Step step, boolean injected) throws Exception {
    clear(c);
    if (!injected) {
      return;
    }
    switch (step.kind()) {
      case STATE_DISK_FULL -> c.disk().orElseThrow().unfill();
      case STATE_READ_ONLY -> c.disk().orElseThrow().makeWritable();
      case CLOCK_MIDNIGHT -> c.jumpPastMidnight();
      default -> {}
    }
  }

  /** Clears every simulator fault (process faults need no clearing: the process was restarted). */
  static void clear(ChaosCluster c) {
    c.receiver().faults().clear();
    c.org().faults().clear();
    c.pubsub().faults().clear();
  }
}
