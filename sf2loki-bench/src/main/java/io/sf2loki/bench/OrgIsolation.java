package io.sf2loki.bench;

import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Issue 15's org-isolation benchmark (SPEC ORG-1, ORG-2, ORG-6; reported, not a timed test): the
 * real daemon with two orgs under {@code orgs:} ({@code alpha}, {@code beta}: two simulated orgs
 * with different org ids, each with its own simulated Pub/Sub API) ships LoginEventStream events
 * published at {@code --rate} events/s per org into a receiver in this JVM ({@link
 * OrgLatencyReceiver}).
 *
 * <p>Push latency is measured per event as in {@link EndToEnd}'s phase (f): from the instant the
 * event became available (just before the simulator published it to the open stream) to the instant
 * the receiver got the push request holding it — the delay a Loki reader sees, including the
 * stream, decoding, the streaming lane's batching ({@code flush_interval}) and the push. Events are
 * assigned to a window by their publish instant. Windows, back to back: warm-up ({@code
 * --warmup-seconds}, 20, after both orgs' first event arrived; not reported), baseline ({@code
 * --baseline-seconds}, 120, both orgs healthy), failure ({@code --fail-seconds}, 120: beta's token
 * endpoint answers 400 {@code invalid_grant} and its issued tokens are revoked, which ends beta's
 * open streams), after ({@code --after-seconds}, 120, beta healthy again). Publishing then stops
 * and the run waits up to {@code --drain-seconds} (300) for every event.
 *
 * <p>It prints alpha's p50/p95/p99/max per window (and beta's outside the failure), beta's catch-up
 * time (token endpoint healed → the receiver holds every beta event published before), lost events
 * per org (must be 0), duplicates and entries with a wrong {@code sf_org_id}. Other options: {@code
 * --rate N} (200 per org), {@code --daemon child|in-process} (child: {@code io.sf2loki.app.cli.Main
 * --config …} in its own JVM on this class path, log in the work directory; in-process: {@code
 * Daemon} on a thread of this JVM, for the smoke test), {@code --java-opts "…"} (child JVM flags),
 * {@code --keep true} (keep the work directory).
 */
public final class OrgIsolation {
  static final String ALPHA_ID = "00D0000000000AAAAA";
  static final String BETA_ID = "00D0000000000BBBBB";
  private static final long TICK_MS = 20;

  private OrgIsolation() {}

  /** The run's windows and figures. */
  record Result(
      Stats alphaBaseline,
      Stats alphaFailure,
      Stats alphaAfter,
      Stats betaBaseline,
      Stats betaAfter,
      long betaDeliveredDuringFailure,
      long betaPublishedDuringFailure,
      double betaCatchUpSeconds,
      long alphaPublished,
      long betaPublished,
      long alphaLost,
      long betaLost,
      long duplicates,
      long wrongOrgId,
      long malformed) {
    boolean passed() {
      return alphaLost == 0 && betaLost == 0 && wrongOrgId == 0 && malformed == 0;
    }
  }

  /** Latency percentiles (ms) of the events published in one window and received. */
  record Stats(long published, long received, double p50, double p95, double p99, double max) {
    static Stats of(List<long[]> events) {
      long[] ms = events.stream().filter(e -> e[1] >= 0).mapToLong(e -> e[1] - e[0]).toArray();
      Arrays.sort(ms);
      return new Stats(
          events.size(), ms.length, pct(ms, 0.50), pct(ms, 0.95), pct(ms, 0.99), pct(ms, 1.0));
    }

    private static double pct(long[] sortedNanos, double p) {
      if (sortedNanos.length == 0) {
        return Double.NaN;
      }
      int i = (int) Math.min(sortedNanos.length - 1, Math.ceil(p * sortedNanos.length) - 1);
      return sortedNanos[Math.max(0, i)] / 1e6;
    }

    String format() {
      return String.format(
          Locale.ROOT,
          "n=%,d/%,d p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms",
          received,
          published,
          p50,
          p95,
          p99,
          max);
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option value: " + args[i]);
      }
      opt.put(args[i].substring(2), args[i + 1]);
    }
    Result r = run(opt);
    System.out.println(r.passed() ? "ORG-ISO RESULT PASS" : "ORG-ISO RESULT FAIL");
    if (!r.passed()) {
      System.exit(1);
    }
  }

  /** Runs the benchmark with {@code opt} (option name without {@code --} → value) and reports. */
  static Result run(Map<String, String> opt) throws Exception {
    double rate = Double.parseDouble(opt.getOrDefault("rate", "200"));
    Path dir = Files.createTempDirectory("sf2loki-bench-orgiso-");
    RSAPublicKey key = DemoScenario.writeJwtKey(dir.resolve("jwt.key"));
    String topic = SimPubSub.LOGIN_TOPIC;
    System.out.printf(
        Locale.ROOT,
        "ORG-ISO rate %.0f events/s per org on %s; windows warm-up %s s, baseline %s s, failure %s"
            + " s, after %s s; daemon %s; load average %s; work dir %s%n",
        rate,
        topic,
        opt.getOrDefault("warmup-seconds", "20"),
        opt.getOrDefault("baseline-seconds", "120"),
        opt.getOrDefault("fail-seconds", "120"),
        opt.getOrDefault("after-seconds", "120"),
        opt.getOrDefault("daemon", "child"),
        BackfillBeside.loadAverage(),
        dir);
    try (OrgFeed alpha = OrgFeed.start("alpha", ALPHA_ID, key, topic);
        OrgFeed beta = OrgFeed.start("beta", BETA_ID, key, topic);
        OrgLatencyReceiver rx =
            OrgLatencyReceiver.start(Map.of("alpha", ALPHA_ID, "beta", BETA_ID))) {
      Path cfg = writeConfig(dir, List.of(alpha, beta), rx.pushUrl());
      Timeline t;
      try (IsolationDaemon daemon = IsolationDaemon.start(opt, cfg, dir);
          Publisher pub = new Publisher(List.of(alpha, beta), rate)) {
        t = Timeline.run(opt, alpha, beta, rx, daemon);
        pub.close(); // stop publishing; then drain
        drain(opt, List.of(alpha, beta), rx, daemon);
      }
      Result r = result(t, alpha, beta, rx);
      report(r);
      return r;
    } finally {
      if (!Boolean.parseBoolean(opt.getOrDefault("keep", "false"))) {
        IsolationDaemon.deleteTree(dir);
      }
    }
  }

  private static Result result(Timeline t, OrgFeed alpha, OrgFeed beta, OrgLatencyReceiver rx) {
    List<long[]> betaBacklog = beta.latencies(rx, 0, t.healed());
    double catchUp = Double.NaN;
    if (betaBacklog.stream().allMatch(e -> e[1] >= 0)) {
      long last = betaBacklog.stream().mapToLong(e -> e[1]).max().orElse(t.healed());
      catchUp = Math.max(0, last - t.healed()) / 1e9;
    }
    List<long[]> betaDuring = beta.latencies(rx, t.failed(), t.healed());
    long deliveredDuring = betaDuring.stream().filter(e -> e[1] >= 0 && e[1] < t.healed()).count();
    return new Result(
        Stats.of(alpha.latencies(rx, t.baseline(), t.failed())),
        Stats.of(alpha.latencies(rx, t.failed(), t.healed())),
        Stats.of(alpha.latencies(rx, t.healed(), t.end())),
        Stats.of(beta.latencies(rx, t.baseline(), t.failed())),
        Stats.of(beta.latencies(rx, t.healed(), t.end())),
        deliveredDuring,
        betaDuring.size(),
        catchUp,
        alpha.publishedCount(),
        beta.publishedCount(),
        alpha.lost(rx),
        beta.lost(rx),
        rx.duplicates(),
        rx.wrongOrgId(),
        rx.malformed());
  }

  private static void report(Result r) {
    System.out.println("ORG-ISO alpha baseline (both healthy): " + r.alphaBaseline().format());
    System.out.println(
        "ORG-ISO alpha while beta's token endpoint fails: " + r.alphaFailure().format());
    System.out.println("ORG-ISO alpha after beta recovered: " + r.alphaAfter().format());
    System.out.printf(
        Locale.ROOT,
        "ORG-ISO alpha p99 failure/baseline %.2f, after/baseline %.2f%n",
        r.alphaFailure().p99() / r.alphaBaseline().p99(),
        r.alphaAfter().p99() / r.alphaBaseline().p99());
    System.out.println("ORG-ISO beta baseline: " + r.betaBaseline().format());
    System.out.printf(
        Locale.ROOT,
        "ORG-ISO beta during failure: %,d of %,d events published in the window delivered before"
            + " the token endpoint healed; caught up %.1f s after it healed%n",
        r.betaDeliveredDuringFailure(),
        r.betaPublishedDuringFailure(),
        r.betaCatchUpSeconds());
    System.out.println("ORG-ISO beta after recovery: " + r.betaAfter().format());
    System.out.printf(
        Locale.ROOT,
        "ORG-ISO lost: alpha %,d of %,d, beta %,d of %,d; duplicates %,d; wrong sf_org_id %,d;"
            + " undecodable pushes %,d%n",
        r.alphaLost(),
        r.alphaPublished(),
        r.betaLost(),
        r.betaPublished(),
        r.duplicates(),
        r.wrongOrgId(),
        r.malformed());
  }

  /** Waits (polling every 100 ms) until the receiver holds every published event, or times out. */
  private static void drain(
      Map<String, String> opt, List<OrgFeed> feeds, OrgLatencyReceiver rx, IsolationDaemon d)
      throws InterruptedException {
    long deadline =
        System.nanoTime()
            + TimeUnit.SECONDS.toNanos(Long.parseLong(opt.getOrDefault("drain-seconds", "300")));
    while (System.nanoTime() < deadline && d.alive()) {
      if (feeds.stream().allMatch(f -> rx.received(f.name) >= f.publishedCount())) {
        return;
      }
      Thread.sleep(100); // poll period of a real process over the network
    }
    System.out.println("ORG-ISO drain ended before every event arrived; daemon: " + d.tail());
  }

  /** The window boundaries ({@link System#nanoTime()}). */
  record Timeline(long baseline, long failed, long healed, long end) {
    static Timeline run(
        Map<String, String> opt,
        OrgFeed alpha,
        OrgFeed beta,
        OrgLatencyReceiver rx,
        IsolationDaemon d)
        throws Exception {
      long firstDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (rx.received(alpha.name) == 0 || rx.received(beta.name) == 0) {
        if (System.nanoTime() > firstDeadline || !d.alive()) {
          throw new IllegalStateException("no events from both orgs; daemon: " + d.tail());
        }
        Thread.sleep(100); // poll period of a real process over the network
      }
      window(opt, "warmup-seconds", "20");
      long baseline = System.nanoTime();
      window(opt, "baseline-seconds", "120");
      long failed = System.nanoTime();
      long tokenCalls = beta.tokenCalls();
      beta.failTokenEndpoint();
      window(opt, "fail-seconds", "120");
      long healed = System.nanoTime();
      beta.healTokenEndpoint();
      System.out.printf(
          Locale.ROOT,
          "ORG-ISO beta token endpoint failed %,d calls%n",
          beta.tokenCalls() - tokenCalls);
      window(opt, "after-seconds", "120");
      return new Timeline(baseline, failed, healed, System.nanoTime());
    }

    /** Lets one measurement window pass (its length is what is measured over). */
    private static void window(Map<String, String> opt, String option, String dflt)
        throws InterruptedException {
      Thread.sleep(Duration.ofSeconds(Long.parseLong(opt.getOrDefault(option, dflt))));
    }
  }

  /** Publishes on every feed at {@code rate} events/s each, every {@value #TICK_MS} ms. */
  private static final class Publisher implements AutoCloseable {
    private final ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("orgiso-publisher").factory());

    Publisher(List<OrgFeed> feeds, double rate) {
      long t0 = System.nanoTime();
      executor.scheduleAtFixedRate(
          () -> {
            long target = (long) ((System.nanoTime() - t0) / 1e9 * rate);
            for (OrgFeed f : feeds) {
              f.publishUpTo(target);
            }
          },
          0,
          TICK_MS,
          TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
      executor.shutdownNow();
      if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("publisher did not stop");
      }
    }
  }

  private static Path writeConfig(Path dir, List<OrgFeed> feeds, String pushUrl)
      throws java.io.IOException {
    StringBuilder orgs = new StringBuilder("orgs:\n");
    for (OrgFeed f : feeds) {
      orgs.append(
          """
            - name: %s
              salesforce:
                login_url: "%s"
                client_id: sim-client-id
                username: integration@example.com
                private_key_file: "%s"
              sources:
                pubsub:
                  enabled: true
                  endpoint: "%s"
                  tls: false
                  replay_preset: EARLIEST
                  topics: ["%s"]
                eventlogfile:
                  enabled: false
          """
              .formatted(
                  f.name, f.org.instanceUrl(), dir.resolve("jwt.key"), f.pubsub.target(), f.topic));
    }
    String rest =
        """
        sink:
          loki:
            url: "%s"
            structured_metadata_fields: [replay_id, event_identifier]
        state:
          file:
            path: "%s"
        service:
          health_addr: "127.0.0.1:0"
          log_level: warning
          log_format: logfmt
        """
            .formatted(pushUrl, dir.resolve("state.json"));
    return Files.writeString(dir.resolve("orgiso.yaml"), orgs + rest, StandardCharsets.UTF_8);
  }
}
