package io.sf2loki.bench;

import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.sim.org.SimOrg;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 16 benchmark harness (SPEC BF-15; reported, not a timed test): {@code sf2loki backfill} of
 * {@code --rows} ELF rows (default 1,000,000: Login, Daily files of {@code --rows-per-file} rows)
 * from the simulated org into a discard receiver, first alone ("solo"), then beside the streaming
 * path of phase (f) of {@link EndToEnd} (10,000 events/s through the streaming lane and the real
 * HTTP sink, its own JVM and receiver) — the daemon's live path. It prints the backfill rows/s of
 * both runs, their ratio (target ≥ 60 %) and phase (f)'s push latency (target p99 ≤ flush_interval
 * + 100 ms). Every part runs in its own JVM: the simulator and this driver here, the receiver, the
 * backfill and the streaming path each in a child.
 *
 * <p>Each round runs, back to back, the backfill alone, the streaming path alone and both together,
 * printing the load average with each. Options: {@code --rows N}, {@code --rows-per-file N}, {@code
 * --latency-seconds N} (default: 1.2 × the solo backfill, at least 10), {@code --repeat N} rounds
 * (1), {@code --nice N} (run the backfill child, solo and beside, under {@code nice -n N}; 0 =
 * not).
 */
public final class BackfillBeside {
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private static final Pattern SUMMARY =
      Pattern.compile("rows_pushed=(\\d+) .* elapsed=([0-9.]+)s");

  /** {@code --nice N}: the backfill child runs under {@code nice -n N} (0 = not). */
  private static int nice;

  private BackfillBeside() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    long rows = Long.parseLong(opt.getOrDefault("rows", "1000000"));
    nice = Integer.parseInt(opt.getOrDefault("nice", "0"));
    long perFile = Long.parseLong(opt.getOrDefault("rows-per-file", "100000"));
    Path dir = Files.createTempDirectory("sf2loki-bench-backfill-");
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    try (SimOrg org =
            SimOrg.builder()
                .jwtPublicKey(DemoScenario.writeJwtKey(dir.resolve("jwt.key")))
                .start();
        Child receiver = Child.start(dir, "receiver", DiscardReceiver.class.getName())) {
      String port = receiver.lineStartingWith("PORT ").substring(5).trim();
      long files = (rows + perFile - 1) / perFile;
      long csvBytes = 0;
      for (int i = 0; i < files; i++) {
        Instant logDate = today.minusDays(2).atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant created = logDate.plus(Duration.ofHours(1)).plusSeconds(i);
        csvBytes +=
            org.addGeneratedLogFile(
                    "Login",
                    "Daily",
                    logDate,
                    created,
                    Math.min(perFile, rows - i * perFile),
                    100 + i)
                .length();
      }
      System.out.printf(
          Locale.ROOT,
          "ELF files: %d Login files, %,d rows, sum LogFileLength %,d B (%.0f B/row)%n",
          files,
          rows,
          csvBytes,
          (double) csvBytes / rows);
      Path cfg = writeConfig(dir, org, "http://127.0.0.1:" + port + "/loki/api/v1/push");
      String[] backfill = {
        "backfill",
        "--config",
        cfg.toString(),
        "--since",
        today.minusDays(3).toString(),
        "--event-types",
        "Login"
      };
      if (Boolean.parseBoolean(opt.getOrDefault("warmup", "false"))) {
        // the simulator (this JVM) serves the first backfill cold; warm it before measuring
        double[] w = runBackfill(dir, backfill);
        System.out.printf(Locale.ROOT, "WARM-UP backfill: %.1f s (not counted)%n", w[1]);
        Files.deleteIfExists(dir.resolve("state-backfill.json"));
      }
      int repeat = Integer.parseInt(opt.getOrDefault("repeat", "1"));
      for (int round = 1; round <= repeat; round++) {
        round(dir, backfill, opt, round);
      }
    }
  }

  /**
   * One round, back to back: the backfill alone, the streaming path alone (as long as the solo
   * backfill took, or {@code --latency-seconds}), then both together.
   */
  private static void round(Path dir, String[] backfill, Map<String, String> opt, int round)
      throws Exception {
    System.out.printf(
        Locale.ROOT,
        "ROUND %d (backfill nice %d) load average before: %s%n",
        round,
        nice,
        loadAverage());
    double[] solo = runBackfill(dir, backfill);
    System.out.printf(
        Locale.ROOT,
        "BACKFILL solo: %,.0f rows in %.1f s = %,.0f rows/s (load average after: %s)%n",
        solo[0],
        solo[1],
        solo[0] / solo[1],
        loadAverage());
    Files.deleteIfExists(dir.resolve("state-backfill.json"));

    int latencySeconds =
        Integer.parseInt(
            opt.getOrDefault("latency-seconds", "" + Math.max(10, (int) Math.ceil(solo[1] * 1.2))));
    try (Child streaming = streaming(dir, latencySeconds)) {
      streaming.process.waitFor();
      System.out.println(
          "STREAMING solo (target p99 <= flush_interval + 100 ms): "
              + streaming.line("E2E (f)")
              + " (load average after: "
              + loadAverage()
              + ")");
    }

    try (Child streaming = streaming(dir, latencySeconds)) {
      streaming.lineStartingWith("E2E (f) started"); // the backfill starts once streaming does
      double[] beside = runBackfill(dir, backfill);
      System.out.printf(
          Locale.ROOT,
          "BACKFILL beside streaming: %,.0f rows in %.1f s = %,.0f rows/s (%.0f %% of solo;"
              + " target >= 60 %%; load average after: %s)%n",
          beside[0],
          beside[1],
          beside[0] / beside[1],
          100 * (beside[0] / beside[1]) / (solo[0] / solo[1]),
          loadAverage());
      streaming.process.waitFor();
      System.out.println(
          "STREAMING beside backfill (target p99 <= flush_interval + 100 ms): "
              + streaming.line("E2E (f)")
              + " (load average after: "
              + loadAverage()
              + ")");
    }
    Files.deleteIfExists(dir.resolve("state-backfill.json"));
  }

  private static Child streaming(Path dir, int seconds) throws IOException {
    return Child.start(
        dir,
        "streaming",
        EndToEnd.class.getName(),
        "--phases",
        "f",
        "--latency-seconds",
        "" + seconds,
        "--rows-per-file",
        "1",
        "--files",
        "1");
  }

  /** {@code /proc/loadavg}'s 1, 5 and 15 minute figures, or "?" off Linux. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  /** Runs one backfill child to the end; returns {rows pushed, elapsed seconds}. */
  private static double[] runBackfill(Path dir, String[] args) throws Exception {
    try (Child c = Child.start(dir, "backfill", "io.sf2loki.app.cli.Main", args)) {
      String out = c.all();
      int rc = c.process.waitFor();
      Matcher m = SUMMARY.matcher(out);
      if (rc != 0 || !m.find()) {
        throw new IllegalStateException("backfill exited " + rc + ":\n" + out);
      }
      out.lines()
          .filter(l -> l.startsWith("sf2loki backfill summary"))
          .forEach(l -> System.out.println("  " + l));
      return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))};
    }
  }

  private static Path writeConfig(Path dir, SimOrg org, String pushUrl) throws IOException {
    String yaml =
        """
        salesforce:
          login_url: "%s"
          client_id: "sim-client-id"
          username: "integration@example.com"
          private_key_file: "%s"
        sources:
          pubsub:
            enabled: false
          eventlogfile:
            enabled: true
            interval: Daily
            event_types: [Login]
        sink:
          loki:
            url: "%s"
        state:
          file:
            path: "%s"
        service:
          log_level: warning
          log_format: logfmt
        """
            .formatted(
                org.instanceUrl(), dir.resolve("jwt.key"), pushUrl, dir.resolve("state.json"));
    return Files.writeString(dir.resolve("backfill-bench.yaml"), yaml, StandardCharsets.UTF_8);
  }

  /** A child JVM on this class path; stdout and stderr merged and kept. */
  private static final class Child implements AutoCloseable {
    final Process process;
    final BufferedReader reader;
    final StringBuilder seen = new StringBuilder();

    private Child(Process process) {
      this.process = process;
      this.reader =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static Child start(Path dir, String name, String main, String... args) throws IOException {
      List<String> cmd = new ArrayList<>();
      if (name.equals("backfill") && nice != 0) {
        cmd.addAll(List.of("nice", "-n", Integer.toString(nice)));
      }
      cmd.add(JAVA);
      cmd.add("--enable-native-access=ALL-UNNAMED");
      cmd.add("-cp");
      cmd.add( // absolute: the child runs in the work directory
          java.util.Arrays.stream(System.getProperty("java.class.path").split(":"))
              .map(e -> Path.of(e).toAbsolutePath().toString())
              .collect(java.util.stream.Collectors.joining(":")));
      cmd.add(main);
      cmd.addAll(List.of(args));
      return new Child(
          new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start());
    }

    /** Reads lines until one starts with {@code prefix} (SLF4J may warn first). */
    String lineStartingWith(String prefix) throws IOException {
      String l;
      while ((l = reader.readLine()) != null) {
        seen.append(l).append('\n');
        if (l.startsWith(prefix)) {
          return l;
        }
      }
      throw new IOException("child ended without a line starting with " + prefix + ":\n" + seen);
    }

    /** The last line (read to the end) that starts with {@code prefix}, else everything. */
    String line(String prefix) throws IOException {
      String all = all();
      String found = null;
      for (String l : all.split("\n")) {
        if (l.startsWith(prefix) && !l.startsWith("E2E (f) started")) {
          found = l;
        }
      }
      return found == null ? all : found;
    }

    /** Everything until the child closes its output. */
    String all() throws IOException {
      String l;
      while ((l = reader.readLine()) != null) {
        seen.append(l).append('\n');
      }
      return seen.toString();
    }

    @Override
    public void close() {
      process.destroy();
    }
  }
}
