package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.SimLogFile;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * End to end on real protocols (tagged network tests run in the default suite: loopback only): the
 * simulated org serves real-shaped EventLogFiles over OAuth + SOQL + LogFile download, the real
 * daemon ships them to the Loki-compatible receiver, checkpoints live in a real state file.
 */
class EndToEndTest {
  private static final int ROWS_PER_FILE = 150;
  private static final int LINE_CAP = 262_144;

  private DemoScenario scenario;
  private Path state;
  private final RetainingMetricReader reader = new RetainingMetricReader();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** Real wall clock and ticker; every wait (retry backoff, poll interval) lasts 2 ms. */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))));

  @BeforeEach
  void start() throws Exception {
    scenario = DemoScenario.start(ROWS_PER_FILE, true, true, Instant.now());
    state = scenario.dir().resolve("state/state.json");
  }

  @AfterEach
  void stop() {
    scenario.close();
  }

  private Sf2lokiConfig config(Map<String, String> env) throws Exception {
    Path cfg = scenario.writeConfig(scenario.receiver().pushUrl(), state);
    return new ConfigLoader().load(cfg, env);
  }

  private int runDaemon(Sf2lokiConfig cfg, UnaryOperator<Sink> decorator, StopSignal stop) {
    Daemon d =
        new Daemon(
            cfg,
            new DaemonOptions(true, reader, decorator, FAST),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return d.run(stop);
  }

  private record Expected(
      String eventType, String line, Instant timestamp, Map<String, String> row) {}

  /** Every row the org serves, shaped independently of the source: canonical JSON + timestamp. */
  private List<Expected> expectedEntries(List<SimLogFile> files) throws Exception {
    List<Expected> out = new ArrayList<>();
    for (SimLogFile f : files) {
      byte[] body;
      try (InputStream in = f.body().open()) {
        body = in.readAllBytes();
      }
      try (CsvReader<CsvRecord> r =
          CsvReader.builder().ofCsvRecord(new String(body, StandardCharsets.UTF_8))) {
        List<String> header = null;
        CanonicalJson.RowWriter writer = null;
        for (CsvRecord rec : r) {
          if (header == null) {
            header = rec.getFields();
            writer = new CanonicalJson.RowWriter(header);
            continue;
          }
          Map<String, String> row = new HashMap<>();
          for (int i = 0; i < header.size() && i < rec.getFieldCount(); i++) {
            row.put(header.get(i), rec.getField(i));
          }
          String line = writer.write(rec.getFields().toArray(String[]::new));
          Instant ts =
              TimestampParser.firstParsed(row, List.of("TIMESTAMP_DERIVED", "TIMESTAMP"))
                  .orElse(null);
          out.add(new Expected(f.eventType(), line, ts, row));
        }
      }
    }
    return out;
  }

  private long counter(String name, String key, String value) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          if (key == null || value.equals(p.getAttributes().get(AttributeKey.stringKey(key)))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  private static String lineKey(String type, String line, Instant ts) {
    return type + '\u0000' + ts + '\u0000' + line;
  }

  @Test
  @DisplayName(
      "ELF-9, ELF-14, SRC-7, SRC-9, SRC-11, PIPE-4, SINK-4, SINK-7: every row lands exactly once"
          + " with its labels, structured metadata and nanosecond timestamp")
  void elf14_everyRowLandsExactlyOnce() throws Exception {
    assertThat(scenario.eventTypes()).hasSizeGreaterThanOrEqualTo(3);
    Map<String, Long> filesPerType = new HashMap<>();
    scenario.org().logFiles().forEach(f -> filesPerType.merge(f.eventType(), 1L, Long::sum));
    assertThat(filesPerType.values().stream().filter(n -> n >= 2).count())
        .isGreaterThanOrEqualTo(3);

    int status = runDaemon(config(Map.of()), UnaryOperator.identity(), new StopSignal());

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    List<Expected> expected = expectedEntries(scenario.org().logFiles());
    assertThat(expected).hasSize((int) scenario.expectedRows());
    List<ReceivedEntry> got = scenario.receiver().entries();
    assertThat(got).hasSize(expected.size());
    assertThat(scenario.receiver().duplicatesDropped()).isZero();

    String orgId = scenario.org().orgId();
    Map<String, ReceivedEntry> byKey = new HashMap<>();
    for (ReceivedEntry e : got) {
      assertThat(e.labels())
          .containsOnlyKeys(
              "job", "service_name", "environment", "sf_org_id", "source", "event_type")
          .containsEntry("job", "sf2loki")
          .containsEntry("service_name", "sf2loki")
          .containsEntry("environment", "production")
          .containsEntry("sf_org_id", orgId)
          .containsEntry("source", "eventlogfile");
      assertThat(e.structuredMetadata().get("level")).isIn("info", "warn", "error");
      byKey.put(lineKey(e.labels().get("event_type"), e.line(), e.timestamp()), e);
    }
    int truncated = 0;
    for (Expected x : expected) {
      int bytes = x.line().getBytes(StandardCharsets.UTF_8).length;
      if (bytes > LINE_CAP) {
        truncated++;
        continue; // checked below
      }
      ReceivedEntry e = byKey.get(lineKey(x.eventType(), x.line(), x.timestamp()));
      assertThat(e)
          .as("row of %s landed with its exact line and timestamp", x.eventType())
          .isNotNull();
      for (String f : List.of("USER_ID", "CLIENT_IP", "REQUEST_ID", "URI")) {
        if (x.row().containsKey(f)) {
          assertThat(e.structuredMetadata()).containsEntry(f, x.row().get(f));
        }
      }
    }
    assertThat(truncated).as("the hard-case file has a field over 256 KiB").isEqualTo(1);
    assertThat(got)
        .filteredOn(e -> e.line().contains("…[truncated, original "))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.line().getBytes(StandardCharsets.UTF_8))
                    .hasSizeLessThanOrEqualTo(LINE_CAP));
    assertThat(counter("sf2loki_lines_truncated", "source", "eventlogfile")).isEqualTo(1);
    assertThat(counter("sf2loki_eventlogfile_rows_ingested", null, null))
        .isEqualTo(expected.size());
    assertThat(counter("sf2loki_eventlogfile_files_processed", null, null))
        .isEqualTo(scenario.fileIds().size());

    // a replay of the same files (checkpoints removed) yields byte-identical entries: every
    // entry collapses in the receiver as a duplicate (same stream, nanosecond timestamp, line)
    java.nio.file.Files.delete(state);
    int again = runDaemon(config(Map.of()), UnaryOperator.identity(), new StopSignal());
    assertThat(again).isZero();
    assertThat(scenario.receiver().totalEntries()).isEqualTo(expected.size());
    assertThat(scenario.receiver().duplicatesDropped()).isEqualTo(expected.size());
  }

  /** Fires {@code stop} after {@code n} successful pushes, counting every entry pushed. */
  private static final class StopAfterPushes implements Sink {
    private final Sink delegate;
    private final int n;
    private final StopSignal stop;
    final AtomicInteger pushes = new AtomicInteger();
    final AtomicLong entries = new AtomicLong();

    StopAfterPushes(Sink delegate, int n, StopSignal stop) {
      this.delegate = delegate;
      this.n = n;
      this.stop = stop;
    }

    @Override
    public PushResult push(Batch batch, boolean singleAttempt, StopSignal s)
        throws RetryableSinkException, PermanentSinkException, InterruptedException {
      PushResult r = delegate.push(batch, singleAttempt, s);
      entries.addAndGet(batch.realCount());
      if (pushes.incrementAndGet() == n) {
        stop.stop();
      }
      return r;
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  private Set<String> committedFileIds() {
    Set<String> ids = new HashSet<>();
    try (var store = new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
      store
          .snapshot()
          .forEach(
              (k, v) -> {
                for (String id : scenario.fileIds()) {
                  if (v.contains("\"" + id + "\"")) {
                    ids.add(id);
                  }
                }
              });
    }
    return ids;
  }

  @Test
  @DisplayName(
      "PIPE-1, PIPE-13, ELF-10, STATE-4: a restart loses no row and re-sends only rows of"
          + " files not committed before the stop")
  void pipe1_restartResendsOnlyUncommittedFiles() throws Exception {
    Sf2lokiConfig cfg =
        config(
            Map.of(
                "SF2LOKI_SINK__LOKI__BATCH__MAX_ENTRIES", "100",
                "SF2LOKI_SOURCES__EVENTLOGFILE__CONCURRENCY", "1"));
    StopSignal stop1 = new StopSignal();
    AtomicLong firstRun = new AtomicLong();
    int s1 =
        runDaemon(
            cfg,
            sink -> {
              StopAfterPushes st = new StopAfterPushes(sink, 5, stop1);
              return new Sink() {
                @Override
                public PushResult push(Batch b, boolean single, StopSignal s)
                    throws RetryableSinkException, PermanentSinkException, InterruptedException {
                  PushResult r = st.push(b, single, s);
                  firstRun.addAndGet(b.realCount());
                  return r;
                }
              };
            },
            stop1);
    assertThat(s1).isZero();
    Set<String> committed = committedFileIds();
    long delivered1 = scenario.receiver().totalEntries();
    assertThat(delivered1).isPositive().isLessThan(scenario.expectedRows());
    assertThat(committed).isNotEmpty().hasSizeLessThan(scenario.fileIds().size());

    long committedRows = 0;
    for (SimLogFile f : scenario.org().logFiles()) {
      if (committed.contains(f.id())) {
        committedRows += expectedEntries(List.of(f)).size();
      }
    }
    AtomicLong secondRun = new AtomicLong();
    int s2 =
        runDaemon(
            cfg,
            sink ->
                new Sink() {
                  @Override
                  public PushResult push(Batch b, boolean single, StopSignal s)
                      throws RetryableSinkException, PermanentSinkException, InterruptedException {
                    PushResult r = sink.push(b, single, s);
                    secondRun.addAndGet(b.realCount());
                    return r;
                  }
                },
            new StopSignal());
    assertThat(s2).isZero();
    // no row lost
    assertThat(scenario.receiver().totalEntries()).isEqualTo(scenario.expectedRows());
    // only rows of files that were not committed before the stop were sent again
    assertThat(secondRun.get()).isEqualTo(scenario.expectedRows() - committedRows);
    assertThat(committedFileIds()).containsExactlyInAnyOrderElementsOf(scenario.fileIds());
  }

  @Test
  @DisplayName(
      "PIPE-1, PIPE-7, SINK-8, SINK-9: during a Loki outage nothing is lost and no checkpoint"
          + " moves past an undelivered row")
  void pipe1_lokiOutageLosesNothing() throws Exception {
    scenario.receiver().faults().add(LokiFault.status(500).untilCleared());
    CountDownLatch failing = new CountDownLatch(20);
    Sf2lokiConfig cfg = config(Map.of());
    AtomicInteger status = new AtomicInteger(-1);
    Thread t =
        Thread.ofPlatform()
            .start(
                () ->
                    status.set(
                        runDaemon(
                            cfg,
                            sink ->
                                new Sink() {
                                  @Override
                                  public PushResult push(Batch b, boolean single, StopSignal s)
                                      throws RetryableSinkException,
                                          PermanentSinkException,
                                          InterruptedException {
                                    try {
                                      return sink.push(b, single, s);
                                    } catch (RetryableSinkException e) {
                                      failing.countDown();
                                      throw e;
                                    }
                                  }
                                },
                            new StopSignal())));
    assertThat(failing.await(60, TimeUnit.SECONDS)).as("the pipeline keeps retrying").isTrue();
    // while Loki fails, no checkpoint is written
    try (var store = new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
      assertThat(store.snapshot()).isEmpty();
    }
    assertThat(scenario.receiver().totalEntries()).isZero();
    scenario.receiver().faults().clear();
    t.join(60_000);
    assertThat(status.get()).isZero();
    assertThat(scenario.receiver().totalEntries()).isEqualTo(scenario.expectedRows());
    assertThat(counter("sf2loki_loki_push", "outcome", "retried")).isGreaterThanOrEqualTo(4);
    assertThat(committedFileIds()).containsExactlyInAnyOrderElementsOf(scenario.fileIds());
  }
}
