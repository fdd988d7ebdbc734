package io.sf2loki.bench;

import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.sim.org.LogFileBody;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import io.sf2loki.sim.pubsub.SimServers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The footprint harness of issue 14: the real daemon, started through the distribution launcher
 * with the container image's JVM flags and {@code SF2LOKI_MEMORY_LIMIT} (the launcher's DEP-14
 * memory-limit profile, with {@code -XX:MaxRAM} standing in for a container memory limit), against
 * the simulator ({@link SimServers}: org, Pub/Sub, Loki receiver bounded by {@code maxHistory}).
 *
 * <ol>
 *   <li>start-to-ready: {@code --starts} (5) starts against the simulator, each timed from process
 *       start to the first {@code /readyz} 200, stopped with SIGTERM; min, median, max;
 *   <li>load: one generated EventLogFile of {@code --elf-bytes} (1 GiB) plus Pub/Sub events
 *       published at {@code --rate} events/s (2,000) for {@code --seconds} (300), while the
 *       daemon's {@code VmRSS}/{@code VmHWM} are sampled every 500 ms from {@code
 *       /proc/<pid>/status}; it ends when the receiver holds every row and event, or after {@code
 *       --drain-seconds} (900) without reaching it. Reports peak RSS, OOM, rows and events
 *       delivered vs generated.
 * </ol>
 *
 * <p>Options: {@code --phases ready,load}, {@code --dist DIR} ({@code sf2loki-app/target/dist}),
 * {@code --launcher FILE} ({@code sf2loki-app/src/dist/bin/sf2loki}), {@code --max-ram 256m}
 * ({@code SF2LOKI_MEMORY_LIMIT}), {@code --java-opts "..."} ({@code SF2LOKI_JAVA_OPTS}, after the
 * launcher's profile, so they win), {@code --jvm-defaults "..."} (default: the Jib {@code
 * SF2LOKI_JVM_DEFAULTS} read from {@code sf2loki-app/pom.xml}), {@code --nmt} (native memory
 * tracking summary at the end), {@code --queue-max-bytes N} (16 MiB), {@code --bridge-max-bytes N}
 * (16 MiB), {@code --env K=V,K2=V2} (extra environment), {@code --keep} (keep the work directory:
 * file, configs, daemon logs). Run from the repository root.
 */
public final class Footprint {
  private static final Pattern JVM_DEFAULTS =
      Pattern.compile("<SF2LOKI_JVM_DEFAULTS>([^<]*)</SF2LOKI_JVM_DEFAULTS>");

  private final Map<String, String> opt;
  private final Path work;
  private final Path javaHome = Path.of(System.getProperty("java.home"));
  private final String jvmDefaults;
  private final String javaOpts;

  private Footprint(Map<String, String> opt, Path work) throws IOException {
    this.opt = opt;
    this.work = work;
    this.jvmDefaults =
        opt.containsKey("jvm-defaults") ? opt.get("jvm-defaults") : imageJvmDefaults();
    this.javaOpts = opt.getOrDefault("java-opts", "").trim();
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = options(args);
    Path work = Files.createTempDirectory("sf2loki-footprint-");
    Footprint f = new Footprint(opt, work);
    System.out.printf(
        Locale.ROOT,
        "footprint: load average %s, cpus %d%n  SF2LOKI_MEMORY_LIMIT=%s%n"
            + "  SF2LOKI_JVM_DEFAULTS=%s%n  SF2LOKI_JAVA_OPTS=%s%n",
        ProcessStats.loadAverage(),
        Runtime.getRuntime().availableProcessors(),
        opt.getOrDefault("max-ram", "256m"),
        f.jvmDefaults,
        f.javaOpts);
    KeyPair keys = KeyPairGenerator.getInstance("RSA").genKeyPair();
    Files.writeString(work.resolve("jwt.key"), pem(keys), StandardCharsets.US_ASCII);
    long retentionSeconds = Long.parseLong(opt.getOrDefault("retention-seconds", "180"));
    try (SimServers sim =
        SimServers.start(
            SimServers.Ports.ephemeral(),
            o -> o.jwtPublicKey((RSAPublicKey) keys.getPublic()),
            p -> p.retention(Duration.ofSeconds(retentionSeconds)),
            l -> l.maxHistory(1000).handlerThreads(4))) {
      List<String> phases = List.of(opt.getOrDefault("phases", "ready,load").split(","));
      if (phases.contains("ready")) {
        f.startToReady(sim);
      }
      if (phases.contains("load")) {
        f.load(sim);
      }
    } finally {
      if (!opt.containsKey("keep")) {
        deleteTree(work); // the 1 GiB file, state and logs; --keep leaves them for inspection
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private void startToReady(SimServers sim) throws Exception {
    int starts = Integer.parseInt(opt.getOrDefault("starts", "5"));
    List<Long> ms = new ArrayList<>();
    List<Long> cpuMs = new ArrayList<>();
    for (int i = 0; i < starts; i++) {
      int port = 0; // bound by the daemon, read from its log
      Path cfg = writeConfig(sim, "ready-" + i, port, false);
      try (DaemonProcess d = launch(cfg, "ready-" + i, port)) {
        long t = d.awaitReady(Duration.ofSeconds(60));
        long cpu = d.cpuMillis();
        ms.add(t);
        cpuMs.add(cpu);
        int status = d.stop(Duration.ofSeconds(40));
        System.out.printf(
            Locale.ROOT,
            "  start %d: ready after %d ms, %d ms CPU (exit %d)%n",
            i + 1,
            t,
            cpu,
            status);
      }
    }
    List<Long> sorted = ms.stream().sorted().toList();
    System.out.printf(
        Locale.ROOT,
        "FOOTPRINT start-to-ready over %d starts: median %d ms, min %d ms, max %d ms;"
            + " CPU (user+sys) until ready median %d ms (load %s)%n",
        sorted.size(),
        sorted.get(sorted.size() / 2),
        sorted.get(0),
        sorted.get(sorted.size() - 1),
        cpuMs.stream().sorted().toList().get(cpuMs.size() / 2),
        ProcessStats.loadAverage());
  }

  private void load(SimServers sim) throws Exception {
    long elfRows =
        addBigFile(sim.org(), Long.parseLong(opt.getOrDefault("elf-bytes", "1073741824")));
    int rate = Integer.parseInt(opt.getOrDefault("rate", "2000"));
    int seconds = Integer.parseInt(opt.getOrDefault("seconds", "300"));
    int port = 0; // bound by the daemon, read from its log
    Path cfg = writeConfig(sim, "load", port, true);
    AtomicLong published = new AtomicLong();
    long t0 = System.nanoTime();
    try (DaemonProcess d = launch(cfg, "load", port);
        RssSampler rss = new RssSampler(d.pid(), Duration.ofMillis(500)).start()) {
      long readyMs = d.awaitReady(Duration.ofMinutes(2));
      System.out.printf(Locale.ROOT, "  load run: ready after %d ms; publishing%n", readyMs);
      ScheduledExecutorService publisher =
          Executors.newSingleThreadScheduledExecutor(
              Thread.ofPlatform().name("footprint-publisher").factory());
      int perTick = Math.max(1, rate / 10);
      publisher.scheduleAtFixedRate(
          () -> published.addAndGet(sim.pubsub().publish(SimPubSub.LOGIN_TOPIC, perTick).size()),
          100,
          100,
          TimeUnit.MILLISECONDS);
      try {
        progress(sim, d, rss, elfRows, published, t0, Duration.ofSeconds(seconds), false);
      } finally {
        publisher.shutdownNow();
        publisher.awaitTermination(30, TimeUnit.SECONDS);
      }
      long drain = Long.parseLong(opt.getOrDefault("drain-seconds", "900"));
      boolean all = progress(sim, d, rss, elfRows, published, t0, Duration.ofSeconds(drain), true);
      String nmt =
          opt.containsKey("nmt") && d.alive()
              ? d.jcmd(javaHome, "VM.native_memory", "summary")
              : "";
      String metrics = d.alive() ? d.text("/metrics") : "";
      rss.sampleOnce();
      boolean aliveAtEnd = d.alive();
      int status = aliveAtEnd ? d.stop(Duration.ofSeconds(60)) : d.exitValue();
      report(sim, d, rss, elfRows, published.get(), all, aliveAtEnd, status, metrics, nmt, readyMs);
    }
  }

  /**
   * Prints a progress line every 10 s until {@code span} passes or, when {@code untilDone}, the
   * receiver holds every row and event; stops early when the daemon exits.
   *
   * @return whether the receiver holds every row and event
   */
  private boolean progress(
      SimServers sim,
      DaemonProcess d,
      RssSampler rss,
      long elfRows,
      AtomicLong published,
      long t0,
      Duration span,
      boolean untilDone)
      throws InterruptedException {
    long end = System.nanoTime() + span.toNanos();
    long nextLine = 0;
    while (System.nanoTime() < end && d.alive()) {
      long got = sim.loki().totalEntries();
      boolean done = got >= elfRows + published.get();
      if (untilDone && done) {
        return true;
      }
      if (System.nanoTime() >= nextLine) {
        System.out.printf(
            Locale.ROOT,
            "  t=%4ds received %,d of %,d (rows %,d + events %,d); RSS %.1f MiB, peak %.1f MiB; load %s%n",
            (System.nanoTime() - t0) / 1_000_000_000L,
            got,
            elfRows + published.get(),
            elfRows,
            published.get(),
            rss.lastRssKib() / 1024.0,
            rss.hwmKib() / 1024.0,
            ProcessStats.loadAverage());
        nextLine = System.nanoTime() + 10_000_000_000L;
      }
      Thread.sleep(250); // polling a counter of another process's deliveries
    }
    return sim.loki().totalEntries() >= elfRows + published.get();
  }

  private void report(
      SimServers sim,
      DaemonProcess d,
      RssSampler rss,
      long elfRows,
      long published,
      boolean all,
      boolean aliveAtEnd,
      int status,
      String metrics,
      String nmt,
      long readyMs) {
    Map<String, Long> ingested = PromText.sumBy(metrics, "sf2loki_events_ingested", "source");
    Map<String, Long> dropped = PromText.sumBy(metrics, "sf2loki_loki_entries_dropped", "reason");
    System.out.println(nmt);
    System.out.printf(
        Locale.ROOT,
        """
        FOOTPRINT load: ELF %,d rows (%s bytes) + Pub/Sub %,d events at %s/s for %s s
        FOOTPRINT peak RSS: VmHWM %.1f MiB, max sampled VmRSS %.1f MiB (of it RssAnon %.1f MiB,
          RssFile %.1f MiB at that sample) (limit %s)
        FOOTPRINT OOM: %s (alive at end %s, exit status %d)
        FOOTPRINT delivered: receiver accepted %,d of %,d generated (all: %s); daemon ingested %s; dropped %s
        FOOTPRINT ready after %d ms in the load run; load average %s
        """,
        elfRows,
        opt.getOrDefault("elf-bytes", "1073741824"),
        published,
        opt.getOrDefault("rate", "2000"),
        opt.getOrDefault("seconds", "300"),
        rss.hwmKib() / 1024.0,
        rss.maxRssKib() / 1024.0,
        rss.anonAtMaxKib() / 1024.0,
        rss.fileAtMaxKib() / 1024.0,
        opt.getOrDefault("max-ram", "256m"),
        d.loggedOom() || status == 3 ? "YES" : "no",
        aliveAtEnd,
        status,
        sim.loki().totalEntries(),
        elfRows + published,
        all,
        ingested,
        dropped,
        readyMs,
        ProcessStats.loadAverage());
    if (!aliveAtEnd || !all) {
      System.out.println("daemon log tail:\n" + d.tail());
    }
  }

  /**
   * Adds one generated API file of about {@code bytes} CSV bytes, written once to the work
   * directory and served from there (generating it on every read would pace the download by the
   * harness's CPU, not the daemon's); returns its rows.
   */
  private long addBigFile(SimOrg org, long bytes) throws IOException {
    Instant logDate = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(6));
    GeneratedLogFile probe =
        org.addGeneratedLogFile("API", "Hourly", logDate, logDate.plusSeconds(3700), 2000, 7);
    long rows = Math.max(1, bytes * 2000 / probe.length());
    org.removeLogFile(probe.id());
    long t = System.nanoTime();
    GeneratedLogFile big =
        org.addGeneratedLogFile("API", "Hourly", logDate, logDate.plusSeconds(3900), rows, 11);
    org.removeLogFile(big.id());
    Path csv = work.resolve("api.csv");
    try (InputStream in = big.open()) {
      Files.copy(in, csv);
    }
    long size = Files.size(csv);
    org.addLogFile(
        "API",
        "Hourly",
        logDate,
        logDate.plusSeconds(3900),
        new LogFileBody() {
          @Override
          public long length() {
            return size;
          }

          @Override
          public InputStream open() throws IOException {
            return Files.newInputStream(csv);
          }
        });
    System.out.printf(
        Locale.ROOT,
        "  EventLogFile API: %,d rows, %,d bytes (written in %d s)%n",
        rows,
        size,
        (System.nanoTime() - t) / 1_000_000_000L);
    return rows;
  }

  private DaemonProcess launch(Path cfg, String name, int port) throws IOException {
    Path dist = Path.of(opt.getOrDefault("dist", "sf2loki-app/target/dist")).toAbsolutePath();
    Path launcher =
        Path.of(opt.getOrDefault("launcher", "sf2loki-app/src/dist/bin/sf2loki")).toAbsolutePath();
    Map<String, String> env = new java.util.LinkedHashMap<>();
    // the launcher's DEP-14 memory-limit profile, as a cgroup limit would select it
    env.put("SF2LOKI_MEMORY_LIMIT", opt.getOrDefault("max-ram", "256m"));
    for (String kv : opt.getOrDefault("env", "").split(",")) {
      if (kv.contains("=")) {
        env.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    return DaemonProcess.start(
        launcher,
        dist,
        javaHome,
        jvmDefaults,
        javaOpts,
        env,
        cfg,
        work.resolve(name + ".log"),
        port);
  }

  private Path writeConfig(SimServers sim, String name, int healthPort, boolean elf)
      throws IOException {
    String yaml =
        """
        salesforce:
          login_url: "%s"
          client_id: "sim-client-id"
          username: "integration@example.com"
          private_key_file: "%s"
        sources:
          pubsub:
            enabled: true
            endpoint: "%s"
            tls: false
            replay_preset: EARLIEST
            topics: ["%s"]
            bridge_max_bytes: %s
          eventlogfile:
            enabled: %s
            interval: Hourly
            event_types: [API]
        sink:
          loki:
            url: "%s"
            batch:
              queue_max_bytes: %s
        state:
          file:
            path: "%s"
        service:
          health_addr: "127.0.0.1:%d"
          log_level: info
          log_format: logfmt
          telemetry:
            prometheus:
              enabled: true
        """
            .formatted(
                sim.org().instanceUrl(),
                work.resolve("jwt.key"),
                sim.pubsub().target(),
                SimPubSub.LOGIN_TOPIC,
                opt.getOrDefault("bridge-max-bytes", "16777216"),
                elf,
                sim.loki().pushUrl(),
                opt.getOrDefault("queue-max-bytes", "16777216"),
                work.resolve(name + "-state.json"),
                healthPort);
    Path p = work.resolve(name + ".yaml");
    Files.writeString(p, yaml, StandardCharsets.UTF_8);
    return p;
  }

  /**
   * Whether to add {@code -XX:+UseSerialGC}: inside a container the JVM sees the memory limit as
   * physical memory and, below 1792 MiB, is not on a "server-class machine", so its ergonomics pick
   * the serial collector; {@code -XX:MaxRAM} on a bigger host does not change that choice (G1 would
   * run). {@code --gc host} keeps the host's choice.
   */

  /** {@code SF2LOKI_JVM_DEFAULTS} of the Jib image configuration (SPEC DEP-2). */
  private static String imageJvmDefaults() throws IOException {
    String pom = Files.readString(Path.of("sf2loki-app/pom.xml"), StandardCharsets.UTF_8);
    Matcher m = JVM_DEFAULTS.matcher(pom);
    if (!m.find()) {
      throw new IOException(
          "no SF2LOKI_JVM_DEFAULTS in sf2loki-app/pom.xml (run from the repo root)");
    }
    return m.group(1).trim();
  }

  private static String pem(KeyPair keys) {
    String b64 =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(keys.getPrivate().getEncoded());
    return "-----BEGIN PRIVATE KEY-----\n" + b64 + "\n-----END PRIVATE KEY-----\n";
  }

  /** {@code --name value} pairs; an option followed by another option or nothing is a flag. */
  static Map<String, String> options(String[] args) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option [value]: " + args[i]);
      }
      boolean flag = i + 1 == args.length || args[i + 1].startsWith("--");
      out.put(args[i].substring(2), flag ? "true" : args[++i]);
    }
    return out;
  }
}
