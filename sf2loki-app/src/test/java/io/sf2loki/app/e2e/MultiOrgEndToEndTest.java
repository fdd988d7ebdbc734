package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.HealthProbe;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-org end to end (SPEC ORG-1…ORG-7, ORG-12, ORG-13, STATE-18, OBS-4; issue 15 acceptance):
 * two simulated orgs with different org ids under {@code orgs:} in one daemon process ship
 * EventLogFile rows to one Loki-compatible receiver.
 */
class MultiOrgEndToEndTest {
  private static final String ALPHA_ID = "00D0000000000AAAAA";
  private static final String BETA_ID = "00D0000000000BBBBB";
  private static final int ROWS = 40;

  /** Real clocks; every wait (poll interval, backoff) lasts at most 20 ms. */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(20, Math.max(0, d.toMillis())))));

  @TempDir Path dir;
  private SimOrg alpha;
  private SimOrg beta;
  private LokiReceiver loki;
  private final Map<String, Long> expected = new java.util.HashMap<>();
  private final AtomicInteger seed = new AtomicInteger(7);
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final HealthProbe health = new HealthProbe();
  private final RetainingMetricReader reader = new RetainingMetricReader();
  private String betaLoki = ""; // FEAT-6: beta's orgs[].loki block

  @BeforeEach
  void start() throws Exception {
    RSAPublicKey key = DemoScenario.writeJwtKey(dir.resolve("jwt.key"));
    alpha = SimOrg.builder().jwtPublicKey(key).orgId(ALPHA_ID).start();
    beta = SimOrg.builder().jwtPublicKey(key).orgId(BETA_ID).start();
    loki = LokiReceiver.start();
    Instant now = Instant.now();
    addFiles(alpha, "alpha", now.minus(Duration.ofHours(3)));
    addFiles(beta, "beta", now.minus(Duration.ofHours(3)));
  }

  @AfterEach
  void stop() {
    health.close();
    alpha.close();
    beta.close();
    loki.close();
  }

  /** Two files (Login, API) created at {@code created}; their rows join the org's expectation. */
  private void addFiles(SimOrg org, String name, Instant created) {
    for (String type : List.of("Login", "API")) {
      Instant logDate = created.minus(Duration.ofMinutes(70));
      GeneratedLogFile f =
          org.addGeneratedLogFile(type, "Hourly", logDate, created, ROWS, seed.getAndIncrement());
      expected.merge(name, f.rowCount(), Long::sum);
    }
  }

  private String orgYaml(String name, SimOrg org) {
    return """
          - name: %s
            salesforce:
              login_url: "%s"
              client_id: sim-client-id
              username: integration@example.com
              private_key_file: "%s"
            sources:
              pubsub:
                enabled: false
              eventlogfile:
                enabled: true
                interval: Hourly
                settle_window: 0s
                event_types: [Login, API]
        """
        .formatted(name, org.instanceUrl(), dir.resolve("jwt.key"));
  }

  private Daemon daemon() throws Exception {
    String yaml =
        "orgs:\n"
            + orgYaml("alpha", alpha)
            + orgYaml("beta", beta)
            + betaLoki
            + """
            sink:
              loki:
                url: "%s"
            state:
              file:
                path: "%s"
            service:
              health_addr: "127.0.0.1:0"
              log_level: warning
            """
                .formatted(loki.pushUrl(), dir.resolve("state.json"));
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(file, yaml);
    return new Daemon(
        new ConfigLoader().load(file, Map.of()),
        new DaemonOptions(false, reader, UnaryOperator.identity(), FAST),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** Distinct rows the receiver holds for {@code org} (duplicates collapse in the receiver). */
  private long rows(String org) {
    return loki.entries().stream().filter(e -> org.equals(e.labels().get("org"))).count();
  }

  private Map<String, String> checkpoints() {
    try (var store =
        new FileCheckpointStore(dir.resolve("state.json"), FileCheckpointStore.LockMode.NONE)) {
      return store.snapshot();
    }
  }

  /** Runs the daemon on a platform thread it joins in {@link Running#close()}. */
  private final class Running implements AutoCloseable {
    final Daemon daemon;
    final StopSignal stop = new StopSignal();
    final AtomicInteger status = new AtomicInteger(-1);
    final Thread thread;

    Running() throws Exception {
      daemon = daemon();
      thread = Thread.ofPlatform().name("daemon").start(() -> status.set(daemon.run(stop)));
    }

    @Override
    public void close() throws InterruptedException {
      stop.stop();
      thread.join(Duration.ofSeconds(60));
      assertThat(thread.isAlive()).isFalse();
      assertThat(status.get()).as(err.toString(StandardCharsets.UTF_8)).isZero();
    }
  }

  @Test
  @DisplayName(
      "ORG-1, ORG-2, ORG-3, ORG-4, STATE-18: two orgs in one process; every row lands"
          + " with its org and sf_org_id; keys are org=<name>:…; one org's failing token endpoint"
          + " does not stop the other, and the failing org catches up with nothing lost")
  void org1_twoOrgsOneProcessAndAFailingTokenEndpoint() throws Exception {
    try (Running run = new Running()) {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () -> rows("alpha") == expected.get("alpha") && rows("beta") == expected.get("beta"));

      // beta's token endpoint fails and its current token is revoked; both orgs get new files
      beta.faults()
          .add(
              SimEndpoint.TOKEN,
              Fault.salesforceError(400, "invalid_grant", "authentication failure").untilCleared());
      beta.expireAllTokens();
      long betaBefore = expected.get("beta");
      Instant later = Instant.now().minus(Duration.ofMinutes(20));
      addFiles(alpha, "alpha", later);
      addFiles(beta, "beta", later);
      await().atMost(Duration.ofSeconds(90)).until(() -> rows("alpha") == expected.get("alpha"));
      long tokenCalls = beta.callCount(SimEndpoint.TOKEN);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> beta.callCount(SimEndpoint.TOKEN) > tokenCalls);
      assertThat(rows("beta")).as("beta cannot read while its token fails").isEqualTo(betaBefore);

      beta.faults().clear(SimEndpoint.TOKEN);
      await().atMost(Duration.ofSeconds(90)).until(() -> rows("beta") == expected.get("beta"));

      // FEAT-3: one /statusz row per org and key, with the org's committed position
      int port = run.daemon.healthPort();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(health.get(port, "/statusz").lines())
                      .anySatisfy(l -> assertThat(l).contains("alpha/eventlogfile:Login", "Z"))
                      .anySatisfy(l -> assertThat(l).contains("beta/eventlogfile:API", "Z")));
    }

    List<ReceivedEntry> got = loki.entries();
    assertThat(got).hasSize((int) (expected.get("alpha") + expected.get("beta")));
    assertThat(got)
        .allSatisfy(
            e -> {
              String org = e.labels().get("org");
              assertThat(org).isIn("alpha", "beta");
              assertThat(e.labels())
                  .containsEntry("sf_org_id", org.equals("alpha") ? ALPHA_ID : BETA_ID)
                  .containsEntry("environment", "production")
                  .containsEntry("job", "sf2loki");
            });
    // OBS-4: per-org series carry org; pipeline series (ORG-8) do not
    Map<String, Long> filesByOrg = new java.util.TreeMap<>();
    for (var m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_eventlogfile_files_processed")) {
        m.getLongSumData()
            .getPoints()
            .forEach(
                pt ->
                    filesByOrg.merge(
                        String.valueOf(pt.getAttributes().get(Sf2lokiMetrics.ORG)),
                        pt.getValue(),
                        Long::sum));
      }
      if (m.getName().equals("sf2loki_events_ingested")) {
        assertThat(m.getLongSumData().getPoints())
            .allSatisfy(pt -> assertThat(pt.getAttributes().get(Sf2lokiMetrics.ORG)).isNull());
      }
    }
    assertThat(filesByOrg).containsOnlyKeys("alpha", "beta").containsEntry("alpha", 4L);
    obs4_everySeriesFollowsTheOrgColumn();
    Map<String, String> keys = checkpoints();
    assertThat(keys.keySet())
        .filteredOn(k -> !k.equals("egress:budget"))
        .isNotEmpty()
        .allMatch(
            k -> k.startsWith("org=alpha:eventlogfile:") || k.startsWith("org=beta:eventlogfile:"));
    assertThat(keys)
        .containsKeys(
            "org=alpha:eventlogfile:Login",
            "org=alpha:eventlogfile:API",
            "org=beta:eventlogfile:Login",
            "org=beta:eventlogfile:API");
  }

  @Test
  @DisplayName(
      "ORG-7, ORG-12: an org failing its startup probe leaves the process up, readiness says"
          + " degraded: org beta auth failing, the other org ships; once the token endpoint"
          + " recovers the org catches up and the detail clears")
  void org7_oneOrgFailsAtStartup() throws Exception {
    beta.faults()
        .add(
            SimEndpoint.TOKEN,
            Fault.salesforceError(400, "invalid_grant", "authentication failure").untilCleared());
    try (Running run = new Running()) {
      await().atMost(Duration.ofSeconds(90)).until(() -> rows("alpha") == expected.get("alpha"));
      await().atMost(Duration.ofSeconds(30)).until(() -> run.daemon.healthPort() > 0);
      int port = run.daemon.healthPort();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> health.readyz(port).contains("degraded: org beta auth failing"));
      assertThat(rows("beta")).isZero();

      beta.faults().clear(SimEndpoint.TOKEN);
      await().atMost(Duration.ofSeconds(90)).until(() -> rows("beta") == expected.get("beta"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !health.readyz(port).contains("auth failing"));
    }
    assertThat(loki.entries())
        .filteredOn(e -> "beta".equals(e.labels().get("org")))
        .allSatisfy(e -> assertThat(e.labels()).containsEntry("sf_org_id", BETA_ID));
  }

  @Test
  @DisplayName("ORG-7, ORG-12: when every org fails its probe the process exits 1 naming the first")
  void org7_allOrgsFailExitOne() throws Exception {
    for (SimOrg o : List.of(alpha, beta)) {
      o.faults()
          .add(
              SimEndpoint.TOKEN,
              Fault.salesforceError(400, "invalid_grant", "authentication failure").untilCleared());
    }
    int status = daemon().run(new StopSignal());
    assertThat(status).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("salesforce authentication failed for org alpha");
    assertThat(loki.entries()).isEmpty();
  }

  /**
   * OBS-4 over every {@code sf2loki_*} series the daemon recorded (its components' and the OBS-20
   * idle series): a per-org instrument of the OBS-5 catalogue (column "org" = yes) carries {@code
   * org} = one of the orgs, every other instrument carries none (ORG-8).
   */
  private void obs4_everySeriesFollowsTheOrgColumn() throws Exception {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("docs/SPEC.md"))) {
      p = p.getParent();
    }
    String spec = Files.readString(p.resolve("docs/SPEC.md"));
    int start = spec.indexOf("**OBS-5**");
    Map<String, Boolean> column = new java.util.HashMap<>();
    for (String line : spec.substring(start, spec.indexOf("**OBS-6**", start)).lines().toList()) {
      if (line.startsWith("| `sf2loki_")) {
        String[] cells = line.split("(?<!\\\\)\\|");
        String name = cells[1].trim().replaceAll("`([a-z0-9_]+)`.*", "$1");
        column.put(name, cells[5].trim().startsWith("yes"));
      }
    }
    java.util.Set<String> perOrgSeen = new java.util.TreeSet<>();
    for (var m : reader.collectAllMetrics()) {
      Boolean perOrg = column.get(m.getName());
      if (perOrg == null) {
        assertThat(m.getName()).as("outside the catalogue").doesNotStartWith("sf2loki_");
        continue;
      }
      for (var pt : m.getData().getPoints()) {
        String org = pt.getAttributes().get(Sf2lokiMetrics.ORG);
        if (perOrg) {
          assertThat(org).as("%s %s", m.getName(), pt.getAttributes()).isIn("alpha", "beta");
          perOrgSeen.add(m.getName());
        } else {
          assertThat(org).as("%s %s", m.getName(), pt.getAttributes()).isNull();
        }
      }
    }
    assertThat(perOrgSeen)
        .contains("sf2loki_eventlogfile_files_processed", "sf2loki_auth_refreshes");
  }

  @Test
  @DisplayName(
      "FEAT-6: an org with its own orgs[].loki.tenant_id is pushed in requests of its tenant only;"
          + " the other org keeps sink.loki's")
  void feat6_onePushPerTenant() throws Exception {
    betaLoki = "    loki:\n      tenant_id: team-b\n";
    try (Running run = new Running()) {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () -> rows("alpha") == expected.get("alpha") && rows("beta") == expected.get("beta"));
    }
    Map<String, Integer> byTenant = new java.util.TreeMap<>();
    for (var r : loki.requests()) {
      if (r.status() / 100 == 2) {
        byTenant.merge(r.tenant(), r.entries(), Integer::sum);
      }
    }
    assertThat(byTenant)
        .containsOnly(
            Map.entry("fake", expected.get("alpha").intValue()),
            Map.entry("team-b", expected.get("beta").intValue()));
  }

  @Test
  @DisplayName(
      "ORG-16, PIPE-28: while tenant team-b answers 503, org alpha's rows land and commit and"
          + " beta's checkpoints never move; after team-b recovers every beta row lands exactly once"
          + " and beta commits")
  void org16_failingTenantDelaysOnlyItsOwnOrg() throws Exception {
    betaLoki = "    loki:\n      tenant_id: team-b\n";
    loki.faults().failTenant("team-b", LokiFault.status(503).untilCleared());
    try (Running run = new Running()) {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  rows("alpha") == expected.get("alpha")
                      && checkpoints().keySet().stream()
                              .filter(k -> k.startsWith("org=alpha:eventlogfile"))
                              .count()
                          >= 2
                      && loki.requests().stream()
                              .filter(r -> r.status() == 503 && "team-b".equals(r.tenant()))
                              .count()
                          >= 5);
      assertThat(rows("beta")).isZero();
      assertThat(checkpoints().keySet()).noneMatch(k -> k.startsWith("org=beta:"));

      loki.faults().clear(); // team-b recovers
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  rows("beta") == expected.get("beta")
                      && checkpoints().keySet().stream()
                              .filter(k -> k.startsWith("org=beta:eventlogfile"))
                              .count()
                          >= 2);
    }
    long storedB =
        loki.requests().stream()
            .filter(r -> r.status() / 100 == 2 && "team-b".equals(r.tenant()))
            .mapToLong(r -> r.entries())
            .sum();
    assertThat(storedB).as("each beta row stored once").isEqualTo(expected.get("beta"));
    assertThat(loki.duplicatesDropped()).isZero();
    assertThat(rows("alpha")).isEqualTo(expected.get("alpha"));
  }
}
