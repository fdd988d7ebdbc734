package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.app.e2e.support.FileLeaseReplica;
import io.sf2loki.app.e2e.support.HealthProbe;
import io.sf2loki.app.e2e.support.PushEpochs;
import io.sf2loki.app.e2e.support.SalesforceScenario;
import io.sf2loki.app.e2e.support.StateSampler;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.RecordedRequest;
import io.sf2loki.sim.org.SimObjectRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 acceptance bullet 1, second half, with real processes: two {@code sf2loki run} child
 * JVMs share one {@code file_lease} file and one file checkpoint store against the simulated org (a
 * {@code LoginHistory} backlog, egress-limited so rows flow for the whole test); the test forces 20
 * lease losses of the current leader while it produces.
 *
 * <p><b>Forcing a loss.</b> Mostly the test overwrites the lease file atomically (temp file +
 * rename) with a foreign, already expired holder carrying the current epoch: the leader surrenders
 * at its next renewal (HA-11, {@code foreign_holder}) and a replica — either one — acquires with a
 * higher epoch (HA-8) and claims it in the store (HA-26). A leader renewing between our write and
 * its read overwrites us; the test then writes again. Two losses (positions from the seed) are
 * SIGSTOP freezes of the leader: the other replica wins the expired lease but cannot start its
 * term, because the frozen leader still holds the store's term lock (STATE-5), so the store's epoch
 * must not move while it is frozen; after SIGCONT the thawed leader finds its renew deadline
 * passed, surrenders and releases the lock (HA-4, HA-18) and the new holder's term starts within
 * {@link #THAW_LIMIT} (HA-17).
 *
 * <p><b>What is asserted.</b> (1) A {@link StateSampler} thread reads the state and lease files
 * every {@link #SAMPLE}: no checkpoint value ever moves backwards in its cursor's order and {@code
 * __fence_epoch__} never decreases. (2) No two processes push in the same epoch: each replica
 * pushes to its own Loki receiver, each epoch was acquired by one process only (the children's
 * "lease acquired" log lines), and {@link PushEpochs} fits every push into an epoch of its own
 * process consistent with the store's sampled {@code __fence_epoch__} and arrival order. (3) Every
 * backlog row is stored, and the rows pushed more than once are at most one batch per loss (one
 * lane). (4) At least 20 losses happened: store epochs and "lease surrendered" log lines. On
 * failure the message carries the seed, the loss and epoch timelines and the children's log files
 * (copied to {@code target/losses-logs-<seed>}).
 *
 * <p>Tagged {@code failover} (exclude with {@code -Dsurefire.excludedGroups=large,failover}).
 */
@Tag("failover")
class FileLeaseProcessLossesTest {
  private static final String OBJECT = "LoginHistory";
  private static final String CHECKPOINT_KEY = "eventlog_objects:" + OBJECT;
  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration RENEW = Duration.ofSeconds(1);
  private static final Duration GRACE = Duration.ofSeconds(2);
  private static final Duration SAMPLE = Duration.ofMillis(50);
  private static final Duration POLL = Duration.ofMillis(50);
  private static final int LOSSES = 20;
  private static final int FREEZES = 2;
  private static final int ROWS = 10000;
  private static final int BATCH = 100;
  private static final int LINES_PER_SECOND = 200;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern EPOCH = Pattern.compile("\\bepoch=(\\d+)");

  /**
   * Intrusion → new epoch in the store: the leader's next renewal ({@code renew_interval}), a
   * replica's next acquisition attempt (another {@code renew_interval}) and verify delay, the term
   * lock (the old term is joined first; 100 ms retries) and the epoch claim — plus 8 s for a shared
   * 2-core CI box.
   */
  private static final Duration LOSS_LIMIT = RENEW.multipliedBy(2).plusSeconds(8);

  /** SIGSTOP → the other replica holds the lease: ttl after the last renewal, one poll, slack. */
  private static final Duration FREEZE_LIMIT = TTL.plus(RENEW).plusSeconds(6);

  /**
   * SIGCONT → new epoch in the store: the thawed leader's renew deadline has passed, so it
   * surrenders at once, stops and joins its term (at most {@code shutdown_grace}) and releases the
   * lock; the new holder takes it within its 100 ms retry and claims its epoch — plus 6 s slack.
   */
  private static final Duration THAW_LIMIT = GRACE.plus(RENEW).plusSeconds(6);

  /** New epoch → the new term commits progress: term build, a query, one batch — with slack. */
  private static final Duration PROGRESS_LIMIT = Duration.ofSeconds(15);

  private final HealthProbe health = new HealthProbe();
  private final long seed = Long.getLong("losses.seed", System.nanoTime());
  private final Random random = new Random(seed);
  private final List<String> timeline = new ArrayList<>();
  private SalesforceScenario scenario;
  private LokiReceiver receiverB;
  private FileLeaseReplica a;
  private FileLeaseReplica b;
  private StateSampler sampler;
  private Path leaseFile;
  private Instant lastRow;

  @AfterEach
  void stopEverything() throws InterruptedException {
    for (AutoCloseable c : new AutoCloseable[] {sampler, a, b, receiverB, scenario}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          timeline.add("close failed: " + e);
        }
      }
    }
    health.close();
  }

  /** One forced loss: what was done, the store epochs before and after, the new holder. */
  private record Loss(int n, String kind, long from, long to, String holder, Duration took) {}

  @Test
  @DisplayName(
      "HA-4, HA-8, HA-11, HA-17, HA-18, HA-26, STATE-7: two daemon processes on one file lease and"
          + " one file store, 20 forced lease losses of the leader (lease overwrites and SIGSTOP"
          + " freezes) while producing: no checkpoint moves backwards, no two processes push in"
          + " one epoch, every row lands, re-sends stay within one batch per loss")
  void ha8_ha11_ha17_twentyForcedLossesNeverRewindOrShareAnEpoch() throws Exception {
    try {
      runLosses();
    } catch (Throwable t) {
      throw new AssertionError(timelines() + childLogs(), t);
    }
  }

  private void runLosses() throws Exception {
    List<SimObjectRecord> rows = startReplicas();
    lastRow = rows.getLast().timestamp();
    awaitFirstLeader();
    Set<Integer> freezeAt = new TreeSet<>();
    while (freezeAt.size() < FREEZES) {
      freezeAt.add(3 + random.nextInt(LOSSES - 4));
    }
    timeline.add("freezes at losses " + freezeAt);
    List<Loss> losses = new ArrayList<>();
    int attempts = 0;
    while (losses.size() < LOSSES) {
      assertThat(++attempts).as("attempts for %s losses", LOSSES).isLessThanOrEqualTo(LOSSES + 10);
      int n = losses.size() + 1;
      Loss l = freezeAt.contains(n) ? freeze(n) : intrude(n);
      if (l != null) {
        losses.add(l);
        timeline.add(l.toString());
        awaitProgress(l);
      }
    }
    String lastId = rows.getLast().id();
    await("every backlog row delivered and committed")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .failFast("a child exited", () -> !a.alive() || !b.alive())
        .until(() -> checkpoint().contains(lastId));
    sampler.close();
    assertOutcome(rows, losses);
    System.out.println(timelines()); // kept in the surefire report
  }

  private List<SimObjectRecord> startReplicas() throws IOException {
    scenario = SalesforceScenario.start(o -> {});
    receiverB = LokiReceiver.start();
    scenario.org().objects().defineObject(OBJECT, "LoginTime");
    // older than the 1 m settle window, inside the 1 h lookback; distinct timestamps
    List<SimObjectRecord> rows =
        scenario
            .org()
            .objects()
            .addSeries(
                OBJECT, Instant.now().minus(Duration.ofMinutes(50)), Duration.ofMillis(150), ROWS);
    Path base =
        scenario.writeConfig(
            "  eventlog_objects:\n    enabled: true\n    objects:\n      - name: "
                + OBJECT
                + "\n        timestamp_field: LoginTime\n"
                // no late-visibility revisit: each new term would re-ship the last 30 m (OBJ-17)
                + "        revisit_window: 0s\n",
            "    batch:\n      max_entries: "
                + BATCH
                + "\n    egress:\n      max_lines_per_second: "
                + LINES_PER_SECOND
                + "\n");
    leaseFile = scenario.dir().resolve("leader.lease");
    FileLeaseReplica.Lease lease = new FileLeaseReplica.Lease(leaseFile, TTL, RENEW);
    String grace = "service:\n  shutdown_grace: " + GRACE.toSeconds() + "s\n";
    a =
        FileLeaseReplica.start(
            base,
            scenario.dir(),
            lease,
            "replica-a",
            c -> c.replace("log_level: warning", "log_level: info").replace("service:\n", grace),
            health);
    b =
        FileLeaseReplica.start(
            base,
            scenario.dir(),
            lease,
            "replica-b",
            c ->
                c.replace("log_level: warning", "log_level: info")
                    .replace("service:\n", grace)
                    .replace(scenario.receiver().pushUrl(), receiverB.pushUrl()),
            health);
    sampler = StateSampler.start(scenario.dir().resolve("state/state.json"), leaseFile, SAMPLE);
    return rows;
  }

  private void awaitFirstLeader() {
    await("one replica leads, has claimed its epoch and committed")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .failFast("a child exited", () -> !a.alive() || !b.alive())
        .until(() -> fence() > 0 && !checkpoint().isEmpty());
    timeline.add("first leader " + leaseHolder() + " epoch " + fence());
  }

  /**
   * Overwrites the lease with an expired foreign holder (HA-11 surrender, HA-8 re-acquisition);
   * null when no loss followed (never expected: a renewal racing our write is re-done).
   */
  private Loss intrude(int n) throws Exception {
    long from = fence();
    JsonNode lease = readLease();
    String leader = lease.path("holder").asText();
    long leaseEpoch = lease.path("epoch").asLong();
    assertThat(leaseEpoch).as("loss %s: the leader's term is running", n).isEqualTo(from);
    assertProducing(n);
    long start = System.nanoTime();
    writeIntruder(leaseEpoch);
    int[] rewrites = {0};
    await("loss " + n + ": a new epoch in the store after the lease was overwritten")
        .atMost(LOSS_LIMIT)
        .pollInterval(POLL)
        .failFast("a child exited", () -> !a.alive() || !b.alive())
        .until(
            () -> {
              if (fence() > from) {
                return true;
              }
              JsonNode now = readLease();
              if (now.path("holder").asText().equals(leader)
                  && now.path("epoch").asLong() == leaseEpoch) {
                rewrites[0]++; // its renewal read the lease before our write: write again
                writeIntruder(leaseEpoch);
              }
              return false;
            });
    String kind = "overwrite" + (rewrites[0] > 0 ? " (rewritten " + rewrites[0] + "x)" : "");
    return new Loss(n, kind, from, fence(), leaseHolder(), since(start));
  }

  /**
   * Freezes the leader past ttl: the other replica wins the lease but not the term lock (the
   * store's epoch stays); after SIGCONT the new holder's term starts within {@link #THAW_LIMIT}
   * (HA-17).
   */
  private Loss freeze(int n) throws Exception {
    long from = fence();
    JsonNode lease = readLease();
    FileLeaseReplica leader = lease.path("holder").asText().equals(a.holder()) ? a : b;
    FileLeaseReplica other = leader == a ? b : a;
    long leaseEpoch = lease.path("epoch").asLong();
    assertThat(leaseEpoch).as("loss %s: the leader's term is running", n).isEqualTo(from);
    assertProducing(n);
    long start = System.nanoTime();
    leader.signal("STOP");
    try {
      await("loss " + n + ": the other replica wins the lease of the frozen leader")
          .atMost(FREEZE_LIMIT)
          .pollInterval(POLL)
          .failFast("the other replica exited", () -> !other.alive())
          .until(
              () -> {
                JsonNode now = readLease();
                return now.path("holder").asText().equals(other.holder())
                    && now.path("epoch").asLong() > leaseEpoch;
              });
      assertThat(fence())
          .as("loss %s: no term starts while the frozen leader holds the term lock (STATE-5)", n)
          .isEqualTo(from);
    } finally {
      leader.signal("CONT");
    }
    long thawed = System.nanoTime();
    await("loss " + n + ": a new epoch in the store within " + THAW_LIMIT + " of SIGCONT")
        .atMost(THAW_LIMIT)
        .pollInterval(POLL)
        .failFast("a child exited", () -> !a.alive() || !b.alive())
        .until(() -> fence() > from);
    String kind = "freeze (thaw → new epoch " + since(thawed).toMillis() + " ms)";
    return new Loss(n, kind, from, fence(), leaseHolder(), since(start));
  }

  /** The new term commits: the checkpoint moves past its value at the new epoch's claim. */
  private void awaitProgress(Loss l) throws IOException {
    String at = checkpoint();
    await("loss " + l.n() + ": the new term (epoch " + l.to() + ") commits progress")
        .atMost(PROGRESS_LIMIT)
        .pollInterval(POLL)
        .failFast("a child exited", () -> !a.alive() || !b.alive())
        .until(() -> !checkpoint().equals(at));
  }

  /** The loss happens while producing: the committed cursor has not reached the last row. */
  private void assertProducing(int n) throws IOException {
    assertThat(StateSampler.lastTs(checkpoint()))
        .as("loss %s happens mid-backlog (raise ROWS if this fails)", n)
        .isBefore(lastRow);
  }

  private void assertOutcome(List<SimObjectRecord> rows, List<Loss> losses) throws IOException {
    assertThat(sampler.violations()).as("checkpoint order violations").isEmpty();
    Map<Long, Set<String>> acquired = acquisitions();
    assertThat(acquired.values())
        .as("epochs acquired by more than one process: %s", acquired)
        .allSatisfy(holders -> assertThat(holders).hasSize(1));
    Map<Long, String> owners = new TreeMap<>();
    acquired.forEach((e, h) -> owners.put(e, h.iterator().next()));
    List<PushEpochs.Push> pushes = new ArrayList<>();
    for (RecordedRequest r : scenario.receiver().requests()) {
      pushes.add(new PushEpochs.Push(r.arrived(), a.holder()));
    }
    for (RecordedRequest r : receiverB.requests()) {
      pushes.add(new PushEpochs.Push(r.arrived(), b.holder()));
    }
    PushEpochs.Result result = PushEpochs.attribute(sampler.samples(), owners, pushes);
    timeline.add("pushes per epoch: " + result.perEpoch());
    assertThat(result.problems()).as("pushes outside their process's epochs").isEmpty();
    assertThat(result.perEpoch().values())
        .as("pushes of more than one process in one epoch")
        .allSatisfy(byHolder -> assertThat(byHolder).hasSize(1));

    Set<String> ids = rows.stream().map(SimObjectRecord::id).collect(Collectors.toSet());
    Map<String, Integer> stored = new HashMap<>(storedPerId(scenario.receiver()));
    storedPerId(receiverB).forEach((id, k) -> stored.merge(id, k, Integer::sum));
    assertThat(stored.keySet()).as("every backlog row stored").isEqualTo(ids);
    long pushed = scenario.receiver().receivedEntries() + receiverB.receivedEntries();
    long storeEpochs =
        sampler.samples().stream().map(StateSampler.Sample::fence).distinct().count();
    long resent = pushed - ids.size();
    timeline.add("rows pushed " + pushed + ", re-sent " + resent + ", store epochs " + storeEpochs);
    assertThat(resent)
        .as("re-sent rows: at most one batch of the one lane per loss")
        .isLessThanOrEqualTo((long) BATCH * (storeEpochs - 1));

    assertThat(storeEpochs - 1)
        .as("epoch changes seen in the store")
        .isGreaterThanOrEqualTo(LOSSES);
    assertThat(surrenders()).as("'lease surrendered' log lines").isGreaterThanOrEqualTo(LOSSES);
  }

  // ---- observations ----

  private long fence() {
    StateSampler.Sample s = sampler.latest();
    return s == null ? 0 : s.fence();
  }

  private String checkpoint() {
    StateSampler.Sample s = sampler.latest();
    return s == null ? "" : s.state().getOrDefault(CHECKPOINT_KEY, "");
  }

  private String leaseHolder() {
    StateSampler.Sample s = sampler.latest();
    return s == null ? "" : s.leaseHolder();
  }

  private JsonNode readLease() throws IOException {
    return JSON.readTree(leaseFile.toFile());
  }

  /** Writes {@code {"holder":"intruder","expires_at":<now + 0…300 ms>,"epoch":…}} atomically. */
  private void writeIntruder(long epoch) throws IOException {
    ObjectNode doc = JSON.createObjectNode();
    doc.put("holder", "intruder");
    doc.put("expires_at", Instant.now().plusMillis(random.nextInt(300)).toString());
    doc.put("epoch", epoch);
    Path tmp = Files.createTempFile(leaseFile.getParent(), ".intruder-", ".tmp");
    Files.write(tmp, JSON.writeValueAsBytes(doc));
    Files.move(tmp, leaseFile, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Epoch → the processes whose logs say "lease acquired" with it. */
  private Map<Long, Set<String>> acquisitions() {
    Map<Long, Set<String>> out = new TreeMap<>();
    for (FileLeaseReplica r : List.of(a, b)) {
      for (String line : (r.child().stdout() + r.child().stderr()).split("\n")) {
        Matcher m = EPOCH.matcher(line);
        if (line.contains("lease acquired") && m.find()) {
          out.computeIfAbsent(Long.parseLong(m.group(1)), e -> new HashSet<>()).add(r.holder());
        }
      }
    }
    return out;
  }

  private long surrenders() {
    return List.of(a, b).stream()
        .flatMap(r -> (r.child().stdout() + r.child().stderr()).lines())
        .filter(line -> line.contains("lease surrendered"))
        .count();
  }

  private static Map<String, Integer> storedPerId(LokiReceiver r) throws IOException {
    return SalesforceScenario.perId(r.entries());
  }

  private static Duration since(long nanos) {
    return Duration.ofNanos(System.nanoTime() - nanos);
  }

  /** Seed, loss and epoch timelines. */
  private String timelines() {
    StringBuilder sb = new StringBuilder("seed ").append(seed).append(" (-Dlosses.seed=…)\n");
    timeline.forEach(t -> sb.append("  ").append(t).append('\n'));
    if (sampler != null) {
      sb.append("store epochs (first seen, lease holder):\n");
      long last = -1;
      for (StateSampler.Sample s : sampler.samples()) {
        if (s.fence() != last) {
          last = s.fence();
          sb.append("  ").append(last).append(" @").append(s.before());
          sb.append(" lease ").append(s.leaseHolder()).append('/').append(s.leaseEpoch());
          sb.append('\n');
        }
      }
      sampler.violations().forEach(v -> sb.append("  violation ").append(v).append('\n'));
    }
    return sb.toString();
  }

  /** The children's log files, copied out of the temp dir (deleted after the test). */
  private String childLogs() {
    StringBuilder sb = new StringBuilder();
    Path keep = Path.of("target", "losses-logs-" + seed);
    for (FileLeaseReplica r : new FileLeaseReplica[] {a, b}) {
      if (r == null) {
        continue;
      }
      for (Path f : r.child().outputFiles()) {
        try {
          Files.createDirectories(keep);
          Path to = keep.resolve(r.holder() + "-" + f.getFileName());
          Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
          sb.append("child log: ").append(to.toAbsolutePath()).append('\n');
        } catch (IOException e) {
          sb.append("child log ").append(f).append(" not copied: ").append(e).append('\n');
        }
      }
    }
    return sb.toString();
  }
}
