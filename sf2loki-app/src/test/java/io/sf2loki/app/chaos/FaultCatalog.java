package io.sf2loki.app.chaos;

import io.grpc.Status;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.time.Duration;

/**
 * The faults a {@link ChaosSchedule} draws from (SPEC FEAT-22): each one is injected, held for the
 * step's {@code hold} and cleared. Process faults act on one of the two daemon processes; the
 * others use the fault APIs of the simulators ({@code LokiFaultSchedule}, {@code FaultSchedule},
 * {@code PubSubFaults}).
 */
final class FaultCatalog {
  /** Marker of the LoginHistory rows a {@link Kind#LOKI_400} storm rejects (one in four). */
  static final String REJECTED = "Invalid Password";

  private FaultCatalog() {}

  /** A fault, its printed name, its draw weight and whether it stops a daemon process. */
  enum Kind {
    KILL9("kill -9", 14, true),
    SIGTERM("SIGTERM", 8, true),
    KILL9_IN_LOKI_OUTAGE("kill -9 during a Loki 503 outage", 5, true),
    LOKI_429("Loki 429 storm (Retry-After 1s)", 6, false),
    LOKI_5XX("Loki 5xx storm", 5, false),
    LOKI_400("Loki 400 storm (per-entry rejection of lines with '" + REJECTED + "')", 3, false),
    LOKI_400_WIDE("Loki request-wide 400 storm (SINK-10 split-storm guard: retried)", 2, false),
    LOKI_413("Loki 413 storm (512-byte body limit)", 3, false),
    SF_5XX("Salesforce 5xx on query and log file download", 4, false),
    SF_401("Salesforce token expiry (401)", 3, false),
    SF_REQUEST_LIMIT("Salesforce 403 REQUEST_LIMIT_EXCEEDED", 3, false),
    PUBSUB_UNAVAILABLE("Pub/Sub UNAVAILABLE (streams dropped, resubscribe refused)", 4, false),
    PUBSUB_REPLAY_CORRUPTED("Pub/Sub replayid.corrupted on resubscribe", 2, false),
    PUBSUB_STALL("Pub/Sub stream stall (no events, no keepalives)", 3, false);

    private final String label;
    private final int weight;
    private final boolean processFault;

    Kind(String label, int weight, boolean processFault) {
      this.label = label;
      this.weight = weight;
      this.processFault = processFault;
    }

    String label() {
      return label;
    }

    int weight() {
      return weight;
    }

    boolean isProcessFault() {
      return processFault;
    }

    boolean isLokiStorm() {
      return name().startsWith("LOKI_") || this == KILL9_IN_LOKI_OUTAGE;
    }
  }

  /** Injects {@code step}'s fault; process faults return once the stopped process was restarted. */
  static void inject(ChaosCluster c, ChaosSchedule.Step step) throws Exception {
    switch (step.kind()) {
      case KILL9 -> c.stopAndRestart(step.leader(), true);
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
    }
  }

  /** Clears every simulator fault (process faults need no clearing: the process was restarted). */
  static void clear(ChaosCluster c) {
    c.receiver().faults().clear();
    c.org().faults().clear();
    c.pubsub().faults().clear();
  }
}
