package io.sf2loki.bench;

import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.ManagedChannel;
import io.sf2loki.core.cpu.CpuPool;
import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.pubsub.DiscardedReplayIds;
import io.sf2loki.salesforce.pubsub.GrpcSchemaFetcher;
import io.sf2loki.salesforce.pubsub.PubSubChannels;
import io.sf2loki.salesforce.pubsub.PubSubCredentials;
import io.sf2loki.salesforce.pubsub.PubSubReaderSettings;
import io.sf2loki.salesforce.pubsub.PubSubSource;
import io.sf2loki.salesforce.pubsub.PubSubSourceSettings;
import io.sf2loki.salesforce.pubsub.ReplayCommitTimes;
import io.sf2loki.salesforce.pubsub.SchemaCache;
import io.sf2loki.salesforce.pubsub.TopicReaders;
import io.sf2loki.salesforce.pubsub.UndecodableTopics;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Pub/Sub end-to-end harness (issue 6 (d), issue 4's benchmark): events/s decoded and shipped
 * by the real Pub/Sub client against the simulated Pub/Sub API.
 *
 * <p>Setup: a {@link PubSubSimServer} in a separate JVM (so heap and RSS figures are the client's)
 * pre-publishes {@code --events} generated events (default 300,000) split over {@code --topics}
 * (default Login, API anomaly and the Account CDC topic). Each run then builds, as {@code
 * PubSubFactory} does, {@link TopicReaders} + a fresh {@link PubSubSource} (replay {@code
 * EARLIEST}, {@code default_num_requested} {@code --num-requested} (100), bridge 128 MiB) over one
 * process- lifetime plaintext channel with the production {@link PubSubChannels} settings ({@code
 * tls=false}), and runs it in the real {@link Pipeline} (SPEC default batching) into an in-process
 * sink that encodes protobuf + snappy on the CPU pool and discards ({@link EncodingSink}) — real
 * gRPC over Netty on loopback, real Avro decoding, shaping, lane, batching and encoding.
 *
 * <p>A run ends when every published event has been acknowledged by the sink. It reports events/s
 * between the first and the last acknowledged entry (and from the start of the run), MiB/s of UTF-8
 * line bytes, process CPU, CPU per thread group, heap-pool peaks and {@code VmHWM}. One warm-up run
 * (not reported) precedes {@code --repeat} measured runs (3); the summary gives the median.
 *
 * <p>Usage: {@code java -cp ... io.sf2loki.bench.PubSubEndToEnd [--events N] [--repeat N]
 * [--num-requested N] [--topics t1,t2] [--warmup N]}.
 */
public final class PubSubEndToEnd {
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  /** Structured metadata fields of the run (present in the Login and anomaly schemas). */
  static final List<String> METADATA_FIELDS = List.of("UserId", "SourceIp", "EventIdentifier");

  private PubSubEndToEnd() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option value: " + args[i]);
      }
      opt.put(args[i].substring(2), args[i + 1]);
    }
    int events = Integer.parseInt(opt.getOrDefault("events", "300000"));
    int repeat = Integer.parseInt(opt.getOrDefault("repeat", "3"));
    int warmups = Integer.parseInt(opt.getOrDefault("warmup", "1"));
    int numRequested =
        Integer.parseInt(
            opt.getOrDefault(
                "num-requested", String.valueOf(PubSubReaderSettings.NUM_REQUESTED.longDefault())));
    List<String> topics =
        Arrays.asList(
            opt.getOrDefault(
                    "topics",
                    String.join(
                        ",",
                        SimPubSub.LOGIN_TOPIC,
                        SimPubSub.API_ANOMALY_TOPIC,
                        SimPubSub.ACCOUNT_CDC_TOPIC))
                .split(","));

    System.out.printf(
        Locale.ROOT,
        "PS-E2E nproc=%d maxHeap=%d MiB java=%s loadavg=%s%n",
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("java.version"),
        ProcessStats.loadAverage());

    try (SimProcess sim = SimProcess.start(events, topics);
        PubSubChannels channels =
            new PubSubChannels(Map.of("", PubSubChannels.Settings.of(sim.target(), false)));
        CpuPool cpu = new CpuPool()) {
      System.out.printf(
          Locale.ROOT,
          "PS-E2E sim pid %d on %s: %,d events over %s, %.1f MiB Avro payload; num_requested=%d%n",
          sim.process.pid(),
          sim.target(),
          sim.events,
          topics,
          sim.payloadBytes / 1048576.0,
          numRequested);
      Run.Context ctx = context(channels.channel(""), topics, numRequested, cpu);
      for (int i = 1; i <= warmups; i++) {
        Run.once("warm-up " + i, ctx, sim.events, sim.process.pid());
      }
      List<Run> runs = new ArrayList<>();
      for (int i = 1; i <= repeat; i++) {
        runs.add(Run.once("run " + i, ctx, sim.events, sim.process.pid()));
      }
      List<Run> sorted = new ArrayList<>(runs);
      sorted.sort((a, b) -> Double.compare(a.eventsPerSecond(), b.eventsPerSecond()));
      Run median = sorted.get(sorted.size() / 2);
      System.out.printf(
          Locale.ROOT,
          "PS-E2E summary (n=%d): events/s min %,.0f / median %,.0f / max %,.0f; median run %.1f"
              + " MiB/s line bytes; VmHWM %s%n",
          runs.size(),
          sorted.get(0).eventsPerSecond(),
          median.eventsPerSecond(),
          sorted.get(sorted.size() - 1).eventsPerSecond(),
          median.mibPerSecond(),
          ProcessStats.vmHwm());
    }
  }

  /**
   * The process-lifetime parts, built as {@code PubSubFactory} builds them: reader settings (SPEC
   * defaults, {@code EARLIEST}, the given {@code num_requested}), the schema cache over {@code
   * GetSchema}, the PS-15 and PS-6 registries.
   */
  static Run.Context context(
      ManagedChannel channel, List<String> topics, int numRequested, CpuPool cpu) {
    PubSubCredentials credentials = credentials();
    PubSubReaderSettings readerSettings =
        PubSubReaderSettings.defaults(METADATA_FIELDS)
            .withNumRequested(numRequested)
            .withPresets(ReplayPreset.EARLIEST, ReplayPreset.EARLIEST);
    SchemaCache schemas =
        new SchemaCache(
            new GrpcSchemaFetcher(channel, credentials, readerSettings.schemaDeadline()));
    return new Run.Context(
        topics,
        channel,
        credentials,
        readerSettings,
        schemas,
        new DiscardedReplayIds(),
        new UndecodableTopics(),
        cpu);
  }

  /** Token and org id accepted by the simulator (it checks neither the token nor expiry). */
  private static PubSubCredentials credentials() {
    AccessToken token =
        new AccessToken(
            "bench-token",
            URI.create(PubSubSimServer.INSTANCE_URL),
            Instant.now().plus(Duration.ofDays(1)));
    return new PubSubCredentials() {
      @Override
      public AccessToken token() {
        return token;
      }

      @Override
      public void invalidate(AccessToken used) {}

      @Override
      public String orgId() {
        return PubSubSimServer.ORG_ID;
      }
    };
  }

  /** One measured run's figures. */
  record Run(long entries, long lineBytes, double ackSeconds, double totalSeconds) {
    double eventsPerSecond() {
      return entries / ackSeconds;
    }

    double mibPerSecond() {
      return lineBytes / 1048576.0 / ackSeconds;
    }

    /** The process-lifetime parts shared by every run. */
    record Context(
        List<String> topics,
        ManagedChannel channel,
        PubSubCredentials credentials,
        PubSubReaderSettings readerSettings,
        SchemaCache schemas,
        DiscardedReplayIds discarded,
        UndecodableTopics undecodable,
        CpuPool cpu) {}

    /** The Pub/Sub source as {@code PubSubFactory} builds it, every topic from EARLIEST. */
    private static PubSubSource source(Context c, Sf2lokiMetrics m, MapStore store) {
      TopicReaders readers =
          new TopicReaders(
              c.readerSettings(),
              c.channel(),
              c.credentials(),
              c.schemas(),
              c.discarded(),
              new ReplayCommitTimes(TimeSource.system().wall()),
              c.undecodable(),
              InstantSource.system(),
              SourceContext.of(TimeSource.system(), c.cpu().executor(), m, store));
      // as PubSubFactory: decode, transforms (none here) and shaping on the CPU pool (PIPE-26)
      readers.shapeOn(io.sf2loki.salesforce.source.SourceTransforms.NONE, c.cpu().executor());
      return new PubSubSource(
          PubSubSourceSettings.of(
              c.topics(),
              t -> true,
              Duration.ZERO,
              PubSubSourceSettings.BRIDGE_MAX_BYTES.longDefault()),
          readers,
          List::of,
          PubSubSource.TopicOwnership.none(),
          TimeSource.system());
    }

    static Run once(String label, Context c, long expected, long simPid) throws Exception {
      System.gc();
      ProcessStats.resetPeaks();
      Sf2lokiMetrics m = BenchData.metrics();
      MapStore store = new MapStore(); // empty: every topic starts at EARLIEST
      PubSubSource source = source(c, m, store);
      StopSignal stop = new StopSignal();
      AckClockSink sink = new AckClockSink(new EncodingSink(c.cpu().executor()), expected, stop);
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
      double simCpu0 = procCpuSeconds(simPid);
      long t0 = System.nanoTime();
      p.run(stop);
      long tEnd = System.nanoTime();
      double cpuSecs = (ProcessStats.processCpuNanos() - cpu0) / 1e9;
      double simCpuSecs = procCpuSeconds(simPid) - simCpu0;
      String byGroup = EndToEnd.threadCpuSince(threads0, 50_000_000L);
      sink.close();
      if (sink.lastAckNanos == 0 || sink.entries.get() != expected) {
        throw new IllegalStateException(
            label + ": acknowledged " + sink.entries.get() + " entries, expected " + expected);
      }
      if (store.snapshot().size() != c.topics().size()) {
        throw new IllegalStateException(label + ": checkpoints " + store.snapshot().keySet());
      }
      Run r =
          new Run(
              sink.entries.get(),
              sink.lineBytes.get(),
              (sink.lastAckNanos - sink.firstAckNanos) / 1e9,
              (sink.lastAckNanos - t0) / 1e9);
      System.out.printf(
          Locale.ROOT,
          "PS-E2E %s: %,d events, first→last ack %.2f s = %,.0f events/s, %.1f MiB/s line bytes"
              + " (%.0f B/line); start→last ack %.2f s = %,.0f events/s; pipeline ran %.2f s;"
              + " process CPU %.2f s = %.2f µs/event (%.2f cores); simulator CPU %.2f s = %.2f"
              + " µs/event; heap pool peaks %d MiB,"
              + " VmHWM %s; thread CPU:%s%n",
          label,
          r.entries(),
          r.ackSeconds(),
          r.eventsPerSecond(),
          r.mibPerSecond(),
          (double) r.lineBytes() / r.entries(),
          r.totalSeconds(),
          r.entries() / r.totalSeconds(),
          (tEnd - t0) / 1e9,
          cpuSecs,
          cpuSecs * 1e6 / r.entries(),
          cpuSecs / ((tEnd - t0) / 1e9),
          simCpuSecs,
          simCpuSecs * 1e6 / r.entries(),
          ProcessStats.peakHeap() >> 20,
          ProcessStats.vmHwm(),
          byGroup);
      return r;
    }
  }

  /** The simulator JVM; closing it closes its stdin, which ends it. */
  private static final class SimProcess implements AutoCloseable {
    final Process process;
    final int port;
    final long events;
    final long payloadBytes;

    private SimProcess(Process process, int port, long events, long payloadBytes) {
      this.process = process;
      this.port = port;
      this.events = events;
      this.payloadBytes = payloadBytes;
    }

    static SimProcess start(int events, List<String> topics) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(JAVA);
      cmd.add("-Xmx4g");
      cmd.add("--enable-native-access=ALL-UNNAMED");
      cmd.add("--sun-misc-unsafe-memory-access=allow");
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(PubSubSimServer.class.getName());
      cmd.add("--events");
      cmd.add(String.valueOf(events));
      cmd.add("--topics");
      cmd.add(String.join(",", topics));
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = r.readLine();
      while (line != null && !line.startsWith("READY ")) {
        line = r.readLine(); // the simulator's own log lines may come first
      }
      if (line == null) {
        p.destroy();
        throw new IOException("simulator did not start: " + line);
      }
      String[] f = line.split(" ");
      return new SimProcess(p, Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
    }

    String target() {
      return "127.0.0.1:" + port;
    }

    @Override
    public void close() throws IOException {
      process.getOutputStream().close();
      process.destroy();
    }
  }

  /**
   * user + system CPU seconds of process {@code pid} from {@code /proc/<pid>/stat} (NaN if absent).
   */
  private static double procCpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields after the command: state(0) ... utime(11) stime(12), in clock ticks (100 Hz)
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }
}
