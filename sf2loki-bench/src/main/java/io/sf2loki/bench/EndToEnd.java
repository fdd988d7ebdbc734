package io.sf2loki.bench;

import io.sf2loki.core.cpu.CpuPool;
import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.elf.EventLogFileSource;
import io.sf2loki.salesforce.source.SourceContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * The end-to-end harness of issue 6. In one run it reports:
 *
 * <ul>
 *   <li>(a) ELF rows/s and MiB/s (CSV bytes) through the real {@link EventLogFileSource} and {@link
 *       Pipeline}, fed by an in-memory {@code SalesforceRest} ({@link MemoryRest}), into an
 *       in-process sink that encodes protobuf + snappy and discards ({@link EncodingSink});
 *   <li>(b) the same with the real {@link LokiHttpSink} pushing over loopback HTTP to a discard
 *       receiver in a separate JVM ({@link DiscardReceiver});
 *   <li>(c) the in-run limit: the JMH stage costs (CSV → rows → entries → protobuf → snappy) summed
 *       per row, measured by {@link StageLimit} in {@code --limit-forks} forked JVMs per stage (3)
 *       with {@code --limit-iterations} warm-up and measured iterations (5 × 1 s), reported with
 *       its 99.9 % error, and the ratio (a)/(c);
 *   <li>(d) Pub/Sub events/s decoded and shipped against the simulator ({@link PubSubEndToEnd},
 *       {@code --pubsub-events N}, default 300,000);
 *   <li>(e) peak RSS ({@code VmHWM}) and peak heap after each phase;
 *   <li>(f) push latency p50/p99 (emission → receiver acceptance) at 10,000 events/s through the
 *       streaming lane and the real HTTP sink (default {@code flush_interval} 1 s), in a JVM of its
 *       own whenever another phase ran before it (a heap left by earlier phases moved p99 by 6×).
 * </ul>
 *
 * <p>Options: {@code --rows-per-file N} (100000), {@code --files N} per type (2), {@code --repeat
 * N} measured runs of (a) and (b) (3), {@code --phases a,b,c,d,f} (all), {@code --latency-seconds
 * N} (10), {@code --limit-forks N} (3), {@code --limit-iterations N} (5). {@code
 * scripts/bench-compare.sh} runs every phase in its own JVM for two checkouts, interleaved.
 */
public final class EndToEnd {
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  private EndToEnd() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = options(args);
    int rowsPerFile = Integer.parseInt(opt.getOrDefault("rows-per-file", "100000"));
    int files = Integer.parseInt(opt.getOrDefault("files", "2"));
    int repeat = Integer.parseInt(opt.getOrDefault("repeat", "3"));
    int latencySeconds = Integer.parseInt(opt.getOrDefault("latency-seconds", "10"));
    List<String> phases = Arrays.asList(opt.getOrDefault("phases", "a,b,c,d,f").split(","));

    System.out.printf(
        Locale.ROOT,
        "E2E nproc=%d maxHeap=%d MiB java=%s loadavg=%s%n",
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("java.version"),
        ProcessStats.loadAverage());

    Map<String, byte[]> csv = new LinkedHashMap<>();
    long csvBytesPerPass = generate(csv, rowsPerFile, files);
    long rowsPerPass = (long) rowsPerFile * files * csv.size();
    System.out.printf(
        Locale.ROOT,
        "E2E data: %d types x %d files x %,d rows = %,d rows, %.1f MiB CSV (%.0f bytes/row)%n",
        csv.size(),
        files,
        rowsPerFile,
        rowsPerPass,
        csvBytesPerPass / 1048576.0,
        (double) csvBytesPerPass / rowsPerPass);

    double stageSum = phases.contains("c") ? limitPhase(opt) : Double.NaN;

    try (CpuPool cpu = new CpuPool()) {
      if (phases.contains("a")) {
        phaseA(csv, files, repeat, rowsPerPass, csvBytesPerPass, rowsPerFile, stageSum, cpu);
      }
      if (phases.contains("b")) {
        phaseB(csv, files, repeat, rowsPerPass, csvBytesPerPass, rowsPerFile, cpu);
      }
      if (phases.contains("d")) {
        System.out.println(
            "E2E (d) Pub/Sub: PubSubEndToEnd (simulator in its own JVM; lines prefixed PS-E2E)");
        PubSubEndToEnd.main(
            new String[] {
              "--events", opt.getOrDefault("pubsub-events", "300000"), "--repeat", "" + repeat
            });
        memory("(d)");
      }
      if (phases.contains("f")) {
        if (phases.stream().anyMatch(ph -> !ph.equals("f"))) {
          latencyInOwnJvm(latencySeconds); // a fresh heap: earlier phases skewed p99
        } else {
          latency(cpu, latencySeconds);
          memory("(f)");
        }
      }
    }
  }

  /** Phase (a): in-process ELF passes into the encoding sink; (a)/(c) when the limit ran. */
  private static void phaseA(
      Map<String, byte[]> csv,
      int files,
      int repeat,
      long rowsPerPass,
      long csvBytesPerPass,
      int rowsPerFile,
      double stageSum,
      CpuPool cpu)
      throws Exception {
    // warm-up pass (JIT), not reported
    runElf("warm-up", csv, 1, rowsPerFile * 1L * csv.size(), 0, cpu, EncodingSink::new);
    List<Double> inProcess = new ArrayList<>();
    for (int i = 1; i <= repeat; i++) {
      inProcess.add(
          runElf(
              "(a) in-process run " + i,
              csv,
              files,
              rowsPerPass,
              csvBytesPerPass,
              cpu,
              EncodingSink::new));
    }
    summary("(a) in-process", inProcess, rowsPerPass, csvBytesPerPass);
    if (!Double.isNaN(stageSum)) {
      double median = median(inProcess);
      System.out.printf(
          Locale.ROOT,
          "E2E (a)/(c) = %.1f%% (median %,.0f rows/s vs limit %,.0f rows/s)%n",
          100 * median / (1e9 / stageSum),
          median,
          1e9 / stageSum);
    }
    memory("(a)");
  }

  /** Phase (b): ELF passes through the real {@link LokiHttpSink} to a discard receiver JVM. */
  private static void phaseB(
      Map<String, byte[]> csv,
      int files,
      int repeat,
      long rowsPerPass,
      long csvBytesPerPass,
      int rowsPerFile,
      CpuPool cpu)
      throws Exception {
    try (Receiver rx = Receiver.start(false)) {
      List<Double> http = new ArrayList<>();
      Function<java.util.concurrent.Executor, Sink> sink =
          ex ->
              new LokiHttpSink(
                  LokiSinkSettings.of(URI.create(rx.pushUrl()), "bench"),
                  BenchData.metrics(),
                  Sleeper.system(),
                  new Random(),
                  ex);
      runElf("warm-up", csv, 1, rowsPerFile * 1L * csv.size(), 0, cpu, sink);
      for (int i = 1; i <= repeat; i++) {
        http.add(runElf("(b) HTTP run " + i, csv, files, rowsPerPass, csvBytesPerPass, cpu, sink));
      }
      summary("(b) HTTP to receiver JVM", http, rowsPerPass, csvBytesPerPass);
    }
    memory("(b)");
  }

  /** One ELF pass; returns rows/s. */
  static double runElf(
      String label,
      Map<String, byte[]> csv,
      int files,
      long expectedRows,
      long csvBytes,
      CpuPool cpu,
      Function<java.util.concurrent.Executor, Sink> sinkFactory)
      throws Exception {
    ProcessStats.resetPeaks();
    Sf2lokiMetrics m = BenchData.metrics();
    MapStore store = new MapStore();
    Source source =
        new EventLogFileSource(
            elfSettings(csv.keySet()),
            new MemoryRest(csv, files),
            SourceContext.of(TimeSource.system(), cpu.executor(), m, store));
    Sink sink = sinkFactory.apply(cpu.executor());
    Pipeline p =
        new Pipeline(
            PipelineSettings.defaults(BenchData.STATIC_LABELS),
            List.of(source),
            sink,
            store,
            m,
            TimeSource.system(),
            new EntryLimiter(256 * 1024, m)::apply,
            CommitListener.none());
    Map<String, Long> threads0 = ProcessStats.threadCpuByGroup();
    long cpu0 = ProcessStats.processCpuNanos();
    long t0 = System.nanoTime();
    p.run(new StopSignal());
    double secs = (System.nanoTime() - t0) / 1e9;
    double cpuSecs = (ProcessStats.processCpuNanos() - cpu0) / 1e9;
    String byGroup = threadCpuSince(threads0, 10_000_000L);
    if (sink instanceof EncodingSink es && es.entries.get() != expectedRows) {
      throw new IllegalStateException(
          "delivered " + es.entries.get() + " rows, expected " + expectedRows);
    }
    if (store.snapshot().size() != csv.size()) {
      throw new IllegalStateException("cursors committed: " + store.snapshot());
    }
    String sinkStats = sink instanceof EncodingSink es ? sinkStats(es, secs) : "";
    sink.close();
    double rps = expectedRows / secs;
    if (csvBytes > 0) {
      System.out.printf(
          Locale.ROOT,
          "E2E %s: %,d rows in %.2f s = %,.0f rows/s, %.1f MiB/s; process CPU %.2f s = %.2f"
              + " µs/row (%.2f cores busy); heap pool peaks %d MiB, VmHWM %s; thread CPU:%s%s%n",
          label,
          expectedRows,
          secs,
          rps,
          csvBytes / 1048576.0 / secs,
          cpuSecs,
          cpuSecs * 1e6 / expectedRows,
          cpuSecs / secs,
          ProcessStats.peakHeap() >> 20,
          ProcessStats.vmHwm(),
          byGroup,
          sinkStats);
    }
    return rps;
  }

  /** The ELF settings of a bench pass: every generated type, hourly, metadata on. */
  private static EventLogFileSettings elfSettings(java.util.Collection<String> types) {
    return new EventLogFileSettings(
        EventLogFileSettings.Interval.Hourly,
        types.stream().map(EventTypeSettings::of).toList(),
        List.of(),
        Duration.ofHours(1),
        Duration.ofHours(24),
        null,
        1000,
        Duration.ZERO,
        Duration.ofHours(24),
        4,
        BenchData.METADATA_FIELDS,
        true);
  }

  /**
   * Thread CPU per group since {@code before}, groups over {@code minNanos}, as {@code " g=1.2s"}.
   */
  static String threadCpuSince(Map<String, Long> before, long minNanos) {
    StringBuilder byGroup = new StringBuilder();
    ProcessStats.threadCpuByGroup()
        .forEach(
            (g, ns) -> {
              long d = ns - before.getOrDefault(g, 0L);
              if (d > minNanos) {
                byGroup.append(String.format(Locale.ROOT, " %s=%.2fs", g, d / 1e9));
              }
            });
    return byGroup.toString();
  }

  /** The encoding sink's per-push figures, or "" when it made no push. */
  private static String sinkStats(EncodingSink es, double secs) {
    long n = es.pushes.get();
    if (n == 0) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; sink: %d pushes of %.0f entries, encode %.0f µs + CPU-pool queue wait %.0f µs"
            + " per push (consumer busy in push %.0f%% of the run)",
        n,
        (double) es.entries.get() / n,
        es.encodeNanos.get() / 1e3 / n,
        es.poolWaitNanos.get() / 1e3 / n,
        100.0 * (es.encodeNanos.get() + es.poolWaitNanos.get()) / 1e9 / secs);
  }

  /** Fills {@code csv} with one file body per event type; returns the CSV bytes of one pass. */
  private static long generate(Map<String, byte[]> csv, int rowsPerFile, int files) {
    long bytes = 0;
    for (String t : BenchData.EVENT_TYPES) {
      byte[] body = BenchData.csv(t, rowsPerFile);
      csv.put(t, body);
      bytes += (long) body.length * files;
    }
    return bytes;
  }

  /** Phase (c): the stable stage-sum limit ({@link StageLimit}); returns its ns/row. */
  private static double limitPhase(Map<String, String> opt) throws Exception {
    StageLimit.Limit limit =
        StageLimit.measure(
            Integer.parseInt(opt.getOrDefault("limit-forks", "3")),
            Integer.parseInt(opt.getOrDefault("limit-iterations", "5")),
            1);
    StageLimit.print(limit);
    return limit.sum();
  }

  /** Runs phase (f) as {@code EndToEnd --phases f} in a child JVM with this JVM's flags. */
  private static void latencyInOwnJvm(int seconds) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(JAVA);
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!a.startsWith("-agentlib:") && !a.startsWith("-javaagent:")) {
        cmd.add(a);
      }
    }
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            EndToEnd.class.getName(),
            "--phases",
            "f",
            "--latency-seconds",
            "" + seconds,
            "--rows-per-file", // (f) needs no ELF data: keep the fresh heap empty
            "1",
            "--files",
            "1"));
    System.out.println("E2E (f) runs in its own JVM");
    int rc = new ProcessBuilder(cmd).inheritIO().start().waitFor();
    if (rc != 0) {
      throw new IllegalStateException("phase (f) JVM exited " + rc);
    }
  }

  private static void latency(CpuPool cpu, int seconds) throws Exception {
    try (Receiver rx = Receiver.start(true)) {
      Sf2lokiMetrics m = BenchData.metrics();
      List<LogEntry> templates = BenchData.entries("Login", 1000, m);
      long perSecond = 10_000;
      LatencySource source = new LatencySource(templates, perSecond * seconds, perSecond);
      MapStore store = new MapStore();
      Sink sink =
          new LokiHttpSink(
              LokiSinkSettings.of(URI.create(rx.pushUrl()), "bench"),
              m,
              Sleeper.system(),
              new Random(),
              cpu.executor());
      PipelineSettings ps = PipelineSettings.defaults(BenchData.STATIC_LABELS);
      Pipeline p =
          new Pipeline(
              ps,
              List.of(source),
              sink,
              store,
              m,
              TimeSource.system(),
              new EntryLimiter(256 * 1024, m)::apply,
              CommitListener.none());
      ProcessStats.resetPeaks();
      System.out.println("E2E (f) started"); // BackfillBeside starts its backfill on this line
      System.out.flush();
      long t0 = System.nanoTime();
      p.run(new StopSignal());
      double secs = (System.nanoTime() - t0) / 1e9;
      sink.close();
      System.out.printf(
          Locale.ROOT,
          "E2E (f) latency at %,d events/s for %d s (flush_interval %d ms, ran %.1f s): %s%n",
          perSecond,
          seconds,
          ps.flushInterval().toMillis(),
          secs,
          rx.stats());
    }
  }

  private static void summary(String label, List<Double> rps, long rows, long csvBytes) {
    List<Double> s = new ArrayList<>(rps);
    s.sort(null);
    double bytesPerRow = (double) csvBytes / rows;
    System.out.printf(
        Locale.ROOT,
        "E2E %s: min %,.0f / median %,.0f / max %,.0f rows/s; median %.1f MiB/s (n=%d)%n",
        label,
        s.get(0),
        median(s),
        s.get(s.size() - 1),
        median(s) * bytesPerRow / 1048576.0,
        s.size());
  }

  private static double median(List<Double> values) {
    List<Double> s = new ArrayList<>(values);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private static void memory(String phase) {
    System.out.printf(
        Locale.ROOT,
        "E2E (e) after %s: VmHWM %s, heap pool peaks (sum of per-pool peaks, an upper bound) in last run %d MiB, max heap %d MiB%n",
        phase,
        ProcessStats.vmHwm(),
        ProcessStats.peakHeap() >> 20,
        Runtime.getRuntime().maxMemory() >> 20);
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option value: " + args[i]);
      }
      out.put(args[i].substring(2), args[i + 1]);
    }
    return out;
  }

  /** The discard receiver in its own JVM. */
  private static final class Receiver implements AutoCloseable {
    private final Process process;
    private final int port;

    private Receiver(Process process, int port) {
      this.process = process;
      this.port = port;
    }

    static Receiver start(boolean latency) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(JAVA);
      cmd.add("-Xmx256m");
      cmd.add("--enable-native-access=ALL-UNNAMED");
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(DiscardReceiver.class.getName());
      if (latency) {
        cmd.add("--latency");
      }
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = r.readLine();
      if (line == null || !line.startsWith("PORT ")) {
        p.destroy();
        throw new IOException("receiver did not start: " + line);
      }
      return new Receiver(p, Integer.parseInt(line.substring(5).trim()));
    }

    String pushUrl() {
      return "http://127.0.0.1:" + port + "/loki/api/v1/push";
    }

    String stats() throws IOException, InterruptedException {
      try (HttpClient c = HttpClient.newHttpClient()) {
        return c.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/stats")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
      }
    }

    @Override
    public void close() {
      process.destroy();
    }
  }
}
