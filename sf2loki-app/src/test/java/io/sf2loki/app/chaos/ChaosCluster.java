package io.sf2loki.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.app.e2e.support.FileLeaseConfig;
import io.sf2loki.app.e2e.support.HealthProbe;
import io.sf2loki.app.e2e.support.StateDisk;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Two {@code sf2loki run} child JVMs on one {@code file_lease} and one file checkpoint store, every
 * source enabled (EventLogFile, the LoginHistory object feed, ApexLog, Pub/Sub), against the demo's
 * simulated org, Pub/Sub API and Loki receiver in the test JVM; plus the {@link Ledger} of what was
 * generated and the {@link CheckpointMonitor} sampling the state and lease files. Where permitted
 * the state directory is a small tmpfs ({@link StateDisk}, root only) and the daemons' wall clock a
 * {@link FakeClock} (libfaketime) with a small daily egress budget; elsewhere those faults are
 * skipped with a log line.
 */
final class ChaosCluster implements AutoCloseable {
  static final Duration TTL = Duration.ofSeconds(3);
  static final Duration RENEW = Duration.ofSeconds(1);
  static final Duration ELF_POLL = Duration.ofSeconds(2);
  static final Duration OBJECT_POLL = Duration.ofSeconds(1);
  static final Duration APEX_POLL = Duration.ofSeconds(1);

  /** {@code sink.loki.request_timeout}: a {@code LOKI_STALL} holds pushes longer than this. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  /** {@code sink.loki.egress.daily_byte_budget} (with a {@link FakeClock} only). */
  static final long DAILY_BUDGET = 4L << 20;

  private static final long STATE_DISK_BYTES = 8L * 1024 * 1024;
  private static final String APEX_USER = "integration@example.com";
  private static final String PAUSED = "daily byte budget exhausted";

  /** EGR-9: a paused waiter re-checks the UTC day at least this often (plus slack). */
  static final Duration PAUSE_RECHECK = Duration.ofSeconds(70);

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
  private final Optional<FakeClock> clock;
  private StateDisk disk;
  private Instant newestObjectTs;
  private Instant newestApexTs;
  private long apexSeq;
  private long endedFallbacks;
  private Path base;
  private int portRetries;
  private long lastMidnightJump = System.nanoTime() - PAUSE_RECHECK.toNanos();
  private int budgetPausesEnded;
  private int processStops;
  private int leaderStops;

  /** One daemon process slot: its fixed port and holder id, and the current child. */
  private static final class Replica {
    final String holder;
    int port;
    Path cfg;
    ChildJvm child;
    Map<String, Long> drops = Map.of();
    long fallbacks;
    long budgetUsed;

    Replica(String holder, int port, Path cfg) {
      this.holder = holder;
      this.port = port;
      this.cfg = cfg;
    }
  }

  private ChaosCluster(DemoScenario scenario, Optional<FakeClock> clock) {
    this.scenario = scenario;
    this.clock = clock;
    this.leaseFile = scenario.dir().resolve("leader.lease");
    this.stateFile = scenario.dir().resolve("state/state.json");
    this.monitor = new CheckpointMonitor(stateFile, leaseFile);
  }

  /** Starts the simulators, writes the two configurations and starts both daemon processes. */
  static ChaosCluster start() throws Exception {
    Instant now = Instant.now();
    DemoScenario s = DemoScenario.start(100, false, true, now);
    ChaosCluster c = new ChaosCluster(s, FakeClock.detect(s.dir()));
    try {
      s.addLoginHistoryFeed(300, now);
      s.addPubSubStreams(300);
      c.newestObjectTs = now.truncatedTo(ChronoUnit.MILLIS).minus(Duration.ofMinutes(5));
      c.ledger.expectAll(s);
      c.newestApexTs = c.newestObjectTs;
      c.addApexLogs(20, now);
      c.mountStateDisk();
      Path base = c.baseConfig();
      c.base = base;
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

  /** The state directory on an 8 MiB tmpfs, or a log line why the disk faults are skipped. */
  private void mountStateDisk() throws Exception {
    Files.createDirectories(stateFile.getParent());
    try {
      disk = StateDisk.mount(stateFile.getParent(), STATE_DISK_BYTES);
    } catch (org.opentest4j.TestAbortedException e) {
      System.out.println("chaos: state disk faults skipped: " + e.getMessage());
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
            "sources:",
            "  apexlog:\n    enabled: true\n    poll_interval: "
                + APEX_POLL.toSeconds()
                + "s\n    revisit_window: 0s\n")
        .insertAfter(
            "    structured_metadata_fields: [USER_ID, CLIENT_IP, REQUEST_ID, URI]",
            "    request_timeout: "
                + REQUEST_TIMEOUT.toSeconds()
                + "s\n    batch:\n      max_entries: "
                + BATCH
                + "\n"
                + (clock.isEmpty()
                    ? ""
                    : "    egress:\n      daily_byte_budget: "
                        + DAILY_BUDGET
                        + "\n      budget_action: pause\n"))
        .writeTo(scenario.dir().resolve("chaos-base.yaml"));
  }

  private void launch(Replica r) throws Exception {
    r.child =
        ChildJvm.start(
            scenario.dir(),
            List.of("-Xmx256m"),
            clock.map(FakeClock::env).orElse(Map.of()),
            "run",
            "--config",
            r.cfg.toString());
    r.drops = Map.of();
    r.fallbacks = 0;
    r.budgetUsed = 0;
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

  /** The daemons' wall clock, when libfaketime is installed. */
  Optional<FakeClock> clock() {
    return clock;
  }

  /** The tmpfs under the state directory, when mounting is permitted. */
  Optional<StateDisk> disk() {
    return Optional.ofNullable(disk);
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
    endedFallbacks += r.fallbacks;
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

  /**
   * Fails with the child's stderr when a daemon process exited on its own; one that lost its health
   * port to another process between {@link HealthProbe#freePort()} and its bind (other builds share
   * the machine) is started again on a new port, at most 5 times per run.
   */
  void assertAlive() throws Exception {
    for (Replica r : replicas) {
      if (!r.child.process().isAlive()) {
        String err = tail(r);
        if (err.contains("cannot start health server") && portRetries < 5) {
          portRetries++;
          System.out.println(
              "chaos: " + r.holder + " lost port " + r.port + " before binding; new port");
          r.port = HealthProbe.freePort();
          r.cfg =
              FileLeaseConfig.write(base, scenario.dir(), leaseFile, r.holder, r.port, TTL, RENEW);
          launch(r);
          continue;
        }
        throw new AssertionError(r.holder + " exited on its own; stderr:\n" + err);
      }
    }
  }

  /**
   * Waits for a replica to answer {@code 200 ready}; returns how long that took. A budget pause
   * (EGR-8) met on the way is ended by a midnight jump of the fake clock ({@link
   * #endBudgetPause()}), which extends {@code limit} by EGR-9's 60 s re-check; time spent in a
   * pause that may not be ended yet does not count ({@link #pauseAllowance}).
   */
  Duration awaitLeader(Duration limit) throws Exception {
    long t0 = System.nanoTime();
    long deadline = t0 + limit.toNanos();
    long polled = t0;
    while (leader() < 0) {
      assertAlive();
      long now = System.nanoTime();
      deadline += pauseAllowance(now - polled);
      polled = now;
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "no replica answered 200 ready within "
                + limit
                + ": "
                + health.readyz(replicas[0].port)
                + " / "
                + health.readyz(replicas[1].port));
      }
      TimeUnit.MILLISECONDS.sleep(100); // real processes: poll their health servers
    }
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  /**
   * When a replica reports a budget pause and the fake clock did not jump in the last {@link
   * #PAUSE_RECHECK}: jumps it to 2 s after the next UTC midnight (every paused waiter re-checks the
   * day within 60 s, EGR-9) and returns true.
   */
  boolean endBudgetPause() throws Exception {
    if (clock.isEmpty()
        || System.nanoTime() - lastMidnightJump < PAUSE_RECHECK.toNanos()
        || !budgetPaused()) {
      return false;
    }
    jumpPastMidnight();
    budgetPausesEnded++;
    System.out.println("chaos: budget pause outside a clock step, ended by a midnight jump");
    return true;
  }

  /**
   * What a waiter adds to its deadline at a poll: {@link #PAUSE_RECHECK} when {@link
   * #endBudgetPause()} ended a pause; {@code sincePreviousPoll} while a budget pause holds that may
   * not be ended yet (the clock jumped less than {@link #PAUSE_RECHECK} ago, e.g. a PS-15 fallback
   * replaying a whole topic soon after a housekeeping jump): that wait is the harness's, not the
   * daemon's; otherwise 0.
   */
  private long pauseAllowance(long sincePreviousPoll) throws Exception {
    if (endBudgetPause()) {
      return PAUSE_RECHECK.toNanos();
    }
    boolean guarded = System.nanoTime() - lastMidnightJump < PAUSE_RECHECK.toNanos();
    return clock.isPresent() && guarded && budgetPaused() ? sincePreviousPoll : 0;
  }

  /** Jumps the fake clock to 2 s after the next UTC midnight. */
  void jumpPastMidnight() throws java.io.IOException {
    FakeClock c = clock.orElseThrow();
    c.jumpTo(c.nextMidnight().plusSeconds(2));
    lastMidnightJump = System.nanoTime();
  }

  /** Budget pauses met outside a clock step (each ended by a midnight jump). */
  int budgetPausesEnded() {
    return budgetPausesEnded;
  }

  /**
   * The checkpoint positions that cover every entry generated so far: the newest replay id per
   * topic, LoginHistory {@code last_ts}, ApexLog {@code last_ts}, {@code last_created} per
   * EventLogFile type.
   */
  Map<String, Comparable<Object>> targets() {
    Map<String, Comparable<Object>> target = new HashMap<>();
    for (String t : topics()) {
      byte[] id = pubsub().latestReplayId(t);
      target.put(
          "pubsub:" + t,
          CheckpointMonitor.position("pubsub:x", java.util.Base64.getEncoder().encodeToString(id)));
    }
    target.put(
        "eventlog_objects:" + OBJECT,
        CheckpointMonitor.position(
            "eventlog_objects:x", "{\"last_ts\":\"" + newestObjectTs + "\"}"));
    target.put(
        "apexlog", CheckpointMonitor.position("apexlog", "{\"last_ts\":\"" + newestApexTs + "\"}"));
    newestFile.forEach(
        (type, created) ->
            target.put(
                "eventlogfile:" + type,
                CheckpointMonitor.position(
                    "eventlogfile:x", "{\"last_created\":\"" + created + "\"}")));
    return target;
  }

  /**
   * Waits until every source's checkpoint covers the data generated so far (the lanes drained:
   * commits follow deliveries), ending a budget pause met on the way (as {@link #awaitLeader});
   * returns how long it took.
   *
   * @throws AssertionError naming the sources still behind after {@code limit}
   */
  Duration awaitCaughtUp(Duration limit) throws Exception {
    long t0 = System.nanoTime();
    long deadline = t0 + limit.toNanos();
    Map<String, Comparable<Object>> target = targets();
    List<String> behind = behind(monitor.sample(), target);
    long polled = t0;
    while (!behind.isEmpty()) {
      long now = System.nanoTime();
      deadline += pauseAllowance(now - polled);
      polled = now;
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "sources still behind the newest data " + limit + " after the fault: " + behind);
      }
      TimeUnit.MILLISECONDS.sleep(50); // real processes: poll the state file
      assertAlive();
      behind = behind(monitor.sample(), target);
    }
    return Duration.ofNanos(System.nanoTime() - t0);
  }

  private static List<String> behind(
      Map<String, Comparable<Object>> now, Map<String, Comparable<Object>> target) {
    List<String> out = new java.util.ArrayList<>();
    target.forEach(
        (k, v) -> {
          Comparable<Object> p = now.get(k);
          if (p == null || p.compareTo(v) < 0) {
            out.add(k + "=" + p + " < " + v);
          }
        });
    return out;
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
      String text = metrics.substring(4);
      r.drops = Ledger.parseDrops(text);
      r.fallbacks = Ledger.sum(text, "sf2loki_pubsub_replay_fallbacks_total");
      r.budgetUsed = Ledger.sum(text, "sf2loki_egress_budget_used_bytes");
    }
  }

  /** PS-15 replay fallbacks counted over all process lifetimes (as of the last scrapes). */
  long replayFallbacks() {
    long n = endedFallbacks;
    for (Replica r : replicas) {
      n += r.fallbacks;
    }
    return n;
  }

  /** {@code sf2loki_egress_budget_used_bytes} of the leader at the last scrape (0 if none). */
  long budgetUsed() throws InterruptedException {
    int l = leader();
    return l < 0 ? 0 : replicas[l].budgetUsed;
  }

  /** Whether a replica's {@code /readyz} reports the EGR-8 budget pause. */
  boolean budgetPaused() throws InterruptedException {
    for (Replica r : replicas) {
      if (health.readyz(r.port).contains(PAUSED)) {
        return true;
      }
    }
    return false;
  }

  /** Drops counted by the running processes (their last scrape). */
  Map<String, Long> liveDrops() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Replica r : replicas) {
      r.drops.forEach((k, v) -> out.merge(k, v, Long::sum));
    }
    return out;
  }

  /** {@code n} ApexLog records with increasing StartTime up to {@code now}, in the ledger. */
  void addApexLogs(int n, Instant now) {
    Instant floor = now.truncatedTo(ChronoUnit.MILLIS).minusSeconds(2);
    for (int i = 0; i < n; i++) {
      Instant ts = newestApexTs.plusMillis(1).isAfter(floor) ? newestApexTs.plusMillis(1) : floor;
      newestApexTs = ts;
      org().apexLogs().add(APEX_USER, ts, "chaos apex log #" + (++apexSeq) + "\nUSER_DEBUG|x\n");
    }
    ledger.expect("apexlog/apexlog", n);
  }

  /** Newest ApexLog StartTime generated so far. */
  Instant newestApexTs() {
    return newestApexTs;
  }

  /** Publishes {@code n} more events on every topic (recorded in the ledger). */
  void publish(int n) {
    for (String t : topics()) {
      pubsub().publish(t, n);
      ledger.expect(Ledger.pubsubGroup(t), n);
    }
  }

  /** New data for every source, recorded in the ledger. */
  void generate(
      int pubsubEvents, int objectRows, String elfType, int elfRows, int apexLogs, long seed) {
    publish(pubsubEvents);
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
    addApexLogs(apexLogs, now);
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
    try {
      for (Replica r : replicas) {
        if (r != null && r.child != null) {
          r.child.close();
        }
      }
    } finally {
      try {
        if (disk != null) {
          disk.close(); // after the children: their lock files are open on the tmpfs
        }
      } finally {
        health.close();
        scenario.close();
      }
    }
  }
}
