package io.sf2loki.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.Await;
import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.app.e2e.support.FileLeaseConfig;
import io.sf2loki.app.e2e.support.HealthProbe;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Two {@code sf2loki run} child JVMs on one {@code file_lease} and one file checkpoint store, every
 * source enabled (EventLogFile, the LoginHistory object feed, Pub/Sub), against the demo's
 * simulated org, Pub/Sub API and Loki receiver in the test JVM; plus the {@link Ledger} of what was
 * generated and the {@link CheckpointMonitor} sampling the state and lease files.
 */
final class ChaosCluster implements AutoCloseable {
  static final Duration TTL = Duration.ofSeconds(3);
  static final Duration RENEW = Duration.ofSeconds(1);
  static final Duration ELF_POLL = Duration.ofSeconds(2);
  static final Duration OBJECT_POLL = Duration.ofSeconds(1);

  /** {@code sink.loki.batch.max_entries}. */
  static final int BATCH = 200;

  /** Largest EventLogFile the run adds (ELF-10: a file's rows share the checkpoint before it). */
  static final int MAX_FILE_ROWS = 150;

  private static final String OBJECT = "LoginHistory";
  private static final List<String> HOLDERS = List.of("replica-a", "replica-b");

  private final DemoScenario scenario;
  private final HealthProbe health = new HealthProbe();
  private final Path leaseFile;
  private final Path stateFile;
  private final Replica[] replicas = new Replica[2];
  private final Ledger ledger = new Ledger();
  private final CheckpointMonitor monitor;
  private final Map<String, Instant> newestFile = new HashMap<>();
  private Instant newestObjectTs;
  private int processStops;
  private int leaderStops;

  /** One daemon process slot: its fixed port and holder id, and the current child. */
  private static final class Replica {
    final String holder;
    final int port;
    final Path cfg;
    ChildJvm child;
    Map<String, Long> drops = Map.of();

    Replica(String holder, int port, Path cfg) {
      this.holder = holder;
      this.port = port;
      this.cfg = cfg;
    }
  }

  private ChaosCluster(DemoScenario scenario) {
    this.scenario = scenario;
    this.leaseFile = scenario.dir().resolve("leader.lease");
    this.stateFile = scenario.dir().resolve("state/state.json");
    this.monitor = new CheckpointMonitor(stateFile, leaseFile);
  }

  /** Starts the simulators, writes the two configurations and starts both daemon processes. */
  static ChaosCluster start() throws Exception {
    Instant now = Instant.now();
    DemoScenario s = DemoScenario.start(100, false, true, now);
    ChaosCluster c = new ChaosCluster(s);
    try {
      s.addLoginHistoryFeed(300, now);
      s.addPubSubStreams(300);
      c.newestObjectTs = now.truncatedTo(ChronoUnit.MILLIS).minus(Duration.ofMinutes(5));
      c.ledger.expectAll(s);
      Path base = c.baseConfig();
      int portA = HealthProbe.freePort();
      int portB = HealthProbe.freePort();
      while (portB == portA) {
        portB = HealthProbe.freePort();
      }
      int[] ports = {portA, portB};
      for (int i = 0; i < 2; i++) {
        String h = HOLDERS.get(i);
        Path cfg = FileLeaseConfig.write(base, s.dir(), c.leaseFile, h, ports[i], TTL, RENEW);
        c.replicas[i] = new Replica(h, ports[i], cfg);
        c.launch(c.replicas[i]);
      }
      c.monitor.start();
      return c;
    } catch (Exception | Error e) {
      c.close();
      throw e;
    }
  }

  private Path baseConfig() throws Exception {
    Path demo = scenario.writeConfig(scenario.receiver().pushUrl(), stateFile);
    return ConfigText.read(demo)
        .replace(
            "    interval: Hourly\n    concurrency: 4\n",
            "    interval: Hourly\n    concurrency: 1\n    poll_interval: "
                + ELF_POLL.toSeconds()
                + "s\n    settle_window: 0s\n")
        .replace(
            "        timestamp_field: LoginTime\n",
            "        timestamp_field: LoginTime\n        poll_interval: "
                + OBJECT_POLL.toSeconds()
                + "s\n        settle_window: 0s\n"
                // OBJ-17's first pass of a term re-ships the revisit window by design
                + "        revisit_window: 0s\n")
        .insertAfter(
            "    structured_metadata_fields: [USER_ID, CLIENT_IP, REQUEST_ID, URI]",
            "    batch:\n      max_entries: " + BATCH + "\n")
        .writeTo(scenario.dir().resolve("chaos-base.yaml"));
  }

  private void launch(Replica r) throws Exception {
    r.child =
        ChildJvm.start(scenario.dir(), List.of("-Xmx256m"), "run", "--config", r.cfg.toString());
    r.drops = Map.of();
  }

  LokiReceiver receiver() {
    return scenario.receiver();
  }

  SimOrg org() {
    return scenario.org();
  }

  SimPubSub pubsub() {
    return scenario.pubsub();
  }

  List<String> topics() {
    return DemoScenario.DEMO_TOPICS;
  }

  Ledger ledger() {
    return ledger;
  }

  CheckpointMonitor monitor() {
    return monitor;
  }

  int processStops() {
    return processStops;
  }

  int leaderStops() {
    return leaderStops;
  }

  /** Holds a fault for the schedule's real-time {@code d} (the schedule is the test input). */
  void hold(Duration d) throws InterruptedException {
    TimeUnit.MILLISECONDS.sleep(d.toMillis());
  }

  /** Index of the replica answering {@code 200 ready}, or -1. */
  int leader() throws InterruptedException {
    for (int i = 0; i < 2; i++) {
      if (health.readyz(replicas[i].port).equals("200 ready")) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Stops the leader (or the standby) with SIGKILL (no shutdown hook, no final commit, no lease
   * release) or SIGTERM (clean stop, exit 0 expected), after scraping its drop counters, and starts
   * a new process in its slot.
   */
  void stopAndRestart(boolean leader, boolean sigkill) throws Exception {
    int current = leader();
    int target = current < 0 ? 0 : (leader ? current : 1 - current);
    Replica r = replicas[target];
    scrape(r);
    ledger.endLifetime(r.drops);
    if (sigkill) {
      r.child.process().destroyForcibly();
      assertThat(r.child.process().waitFor(20, TimeUnit.SECONDS)).as("SIGKILL took").isTrue();
    } else {
      // before its health server is up the JVM may not have installed the daemon's stop hook yet:
      // then SIGTERM ends it with the JVM's 128 + 15
      boolean started = !health.readyz(r.port).equals("down");
      r.child.process().destroy();
      int exit = r.child.waitFor(Duration.ofSeconds(60));
      if (started || exit != 143) {
        assertThat(exit).as("exit status after SIGTERM; stderr:\n%s", tail(r)).isZero();
      }
    }
    processStops++;
    if (target == current) {
      leaderStops++;
    }
    launch(r);
  }

  /** Fails with the child's stderr when a daemon process exited on its own. */
  void assertAlive() {
    for (Replica r : replicas) {
      if (!r.child.process().isAlive()) {
        throw new AssertionError(r.holder + " exited on its own; stderr:\n" + tail(r));
      }
    }
  }

  /** Waits for a replica to answer {@code 200 ready}; returns how long that took. */
  Duration awaitLeader(Duration limit) throws InterruptedException {
    long t0 = System.nanoTime();
    Await.until(
        "a replica answers 200 ready",
        limit,
        () -> {
          assertAlive();
          try {
            return leader() >= 0;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        });
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  /**
   * {@code /readyz} of both replicas, leader first, once they answer {@code 200 ready} and {@code
   * 503 standby} or {@code limit} passed (a restarted standby answers {@code not ready} while its
   * AUTH-9 start-up probe still retries against a faulty org).
   */
  List<String> awaitReadiness(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    List<String> both;
    do {
      int l = Math.max(0, leader());
      both = List.of(health.readyz(replicas[l].port), health.readyz(replicas[1 - l].port));
      if (both.equals(List.of("200 ready", "503 standby"))) {
        return both;
      }
      TimeUnit.MILLISECONDS.sleep(100); // real processes: poll their health servers
    } while (System.nanoTime() < deadline);
    return both;
  }

  /** Reads both processes' drop counters (kept per process lifetime: counters reset on restart). */
  void scrapeAll() throws InterruptedException {
    for (Replica r : replicas) {
      scrape(r);
    }
  }

  private void scrape(Replica r) throws InterruptedException {
    String metrics = health.get(r.port, "/metrics");
    if (metrics.startsWith("200 ")) {
      r.drops = Ledger.parseDrops(metrics.substring(4));
    }
  }

  /** Drops counted by the running processes (their last scrape). */
  Map<String, Long> liveDrops() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Replica r : replicas) {
      r.drops.forEach((k, v) -> out.merge(k, v, Long::sum));
    }
    return out;
  }

  /** New data for every source, recorded in the ledger. */
  void generate(int pubsubEvents, int objectRows, String elfType, int elfRows, long seed) {
    for (String t : topics()) {
      pubsub().publish(t, pubsubEvents);
      ledger.expect(Ledger.pubsubGroup(t), pubsubEvents);
    }
    // the org serves millisecond timestamps
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    for (int i = 0; i < objectRows; i++) {
      Instant ts =
          newestObjectTs.plusMillis(1).isAfter(now.minusSeconds(2))
              ? newestObjectTs.plusMillis(1)
              : now.minusSeconds(2);
      newestObjectTs = ts;
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("UserId", "005xx0000000001AAA");
      fields.put("LoginType", "Application");
      fields.put("Status", i % 4 == 3 ? FaultCatalog.REJECTED : "Success");
      fields.put("SourceIp", "198.51.100." + (i % 250 + 1));
      org().objects().add(OBJECT, ts, fields);
    }
    ledger.expect("eventlog_objects/" + OBJECT, objectRows);
    Instant created = now.minusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
    Instant logDate = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
    var f = org().addGeneratedLogFile(elfType, "Hourly", logDate, created, elfRows, seed);
    newestFile.merge(elfType, created, (a, b) -> a.isAfter(b) ? a : b);
    ledger.expect("eventlogfile/" + elfType, f.rowCount());
  }

  /** Newest LoginHistory timestamp generated so far. */
  Instant newestObjectTs() {
    return newestObjectTs;
  }

  /** CreatedDate of the newest EventLogFile added per EventType. */
  Map<String, Instant> newestFiles() {
    return Map.copyOf(newestFile);
  }

  /** Notes that {@code topic} may fall back to EARLIEST (PS-15) and re-send its retained events. */
  void expectReplayFallback(String topic) {
    monitor.allowRewind("pubsub:" + topic);
    ledger.allowDuplicates(pubsub().retained(topic).size());
  }

  /** The last 4000 characters of the current children's stderr. */
  String logs() {
    StringBuilder sb = new StringBuilder();
    for (Replica r : replicas) {
      if (r != null && r.child != null) {
        sb.append(r.holder).append(" stderr (tail):\n").append(tail(r)).append('\n');
      }
    }
    return sb.toString();
  }

  private static String tail(Replica r) {
    String s = r.child.stderr() + r.child.stdout();
    return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
  }

  @Override
  public void close() throws Exception {
    monitor.close();
    for (Replica r : replicas) {
      if (r != null && r.child != null) {
        r.child.close();
      }
    }
    health.close();
    scenario.close();
  }
}
