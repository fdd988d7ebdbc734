package io.sf2loki.app.objects;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.apexlog.ToolingApi;
import io.sf2loki.salesforce.auth.AuthMode;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.objects.EventLogObjectSource.PollResult;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.Spool;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.sim.org.SimOrg;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntConsumer;

/**
 * A simulated org on loopback, the real REST client, a fake clock, an in-memory store that commits
 * every accepted token at once (as a pipeline whose pushes all succeed), and metric probes.
 */
final class ObjectHarness implements AutoCloseable {
  static final Instant NOW = Instant.parse("2024-05-01T12:00:00Z");

  final FakeTime time = new FakeTime(NOW);
  final SimOrg org;
  final InMemoryMetricReader reader = InMemoryMetricReader.create();
  final SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader).build();
  final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  final ExecutorService cpu = Executors.newFixedThreadPool(2);
  final HttpClient http = SalesforceHttpClients.create(Duration.ofSeconds(10));
  final SalesforceRest rest;

  /** Tooling calls (ApexLog) over the same REST client; server now = the fake clock. */
  final ToolingApi tooling;

  final List<LogEntry> entries = Collections.synchronizedList(new ArrayList<>());
  final List<String> queries = Collections.synchronizedList(new ArrayList<>());

  final java.util.concurrent.atomic.AtomicLong queryNanos =
      new java.util.concurrent.atomic.AtomicLong();

  /** Called with the 1-based number of each query before it is sent. */
  volatile IntConsumer beforeQuery = n -> {};

  /**
   * When true, queries go straight to the sim's object store (no HTTP; see {@link
   * #ObjectHarness(boolean)}).
   */
  final boolean direct;

  ObjectHarness() throws IOException {
    this(false);
  }

  /**
   * @param direct true: queries are evaluated in-process by the sim's object store (same rules and
   *     records) instead of over loopback HTTP, where each call costs ~45 ms on the JDK server;
   *     used by the 50,000-row catch-up test
   */
  ObjectHarness(boolean direct) throws IOException {
    this.direct = direct;
    org = SimOrg.builder().clock(time.wall()).start();
    TokenProvider tokens =
        new TokenProvider(
            new SalesforceAuthSettings(
                org.baseUri(),
                "production",
                AuthMode.CLIENT_CREDENTIALS,
                "sim-client-id",
                "sim-client-secret",
                "",
                null,
                "",
                Duration.ofHours(1)),
            http,
            metrics,
            time.timeSource());
    HttpSalesforceRest real =
        new HttpSalesforceRest(
            tokens,
            "60.0",
            http,
            metrics,
            time.timeSource(),
            new SpoolDirectory(Files.createTempDirectory("objspool"), 1, pid -> true));
    ToolingApi realTooling = ToolingApi.over(real);
    tooling =
        new ToolingApi() {
          @Override
          public List<Map<String, Object>> toolingQuery(String soql)
              throws SoqlException, InterruptedException {
            queries.add(soql);
            return realTooling.toolingQuery(soql);
          }

          @Override
          public Spool downloadBody(String path, DownloadValidator.Expectation expected)
              throws io.sf2loki.salesforce.rest.DownloadException, InterruptedException {
            return realTooling.downloadBody(path, expected);
          }

          @Override
          public String apiVersion() {
            return "60.0";
          }

          @Override
          public Instant serverNow() {
            return time.now();
          }
        };
    // server now = the fake clock (the JDK server's Date header uses the real clock)
    rest =
        new SalesforceRest() {
          @Override
          public List<Map<String, Object>> query(String soql)
              throws SoqlException, InterruptedException {
            queries.add(soql);
            beforeQuery.accept(queries.size());
            long t0 = System.nanoTime();
            try {
              if (ObjectHarness.this.direct) {
                try {
                  return org.objects().queryDirect(soql);
                } catch (io.sf2loki.sim.org.SimObjectStore.Rejected r) {
                  throw new SoqlException(r.getMessage(), r.status(), r.errorCode(), null);
                }
              }
              return real.query(soql);
            } finally {
              queryNanos.addAndGet(System.nanoTime() - t0);
            }
          }

          @Override
          public Spool download(String path, DownloadValidator.Expectation expected) {
            throw new UnsupportedOperationException();
          }

          @Override
          public String apiVersion() {
            return "60.0";
          }

          @Override
          public Instant serverNow() {
            return time.now();
          }
        };
  }

  EventLogObjectSource source(ObjectSettings... objects) {
    return new EventLogObjectSource(
        new EventLogObjectsSettings(List.of(objects), List.of("UserId"), false),
        rest,
        SourceContext.of(time.timeSource(), cpu, metrics, store));
  }

  /** A source whose records go through {@code transform} (XF). */
  EventLogObjectSource source(
      io.sf2loki.salesforce.elf.RowTransform transform, ObjectSettings... objects) {
    return new EventLogObjectSource(
        new EventLogObjectsSettings(List.of(objects), List.of("UserId"), false),
        rest,
        SourceContext.of(time.timeSource(), cpu, metrics, store),
        transform,
        java.util.random.RandomGenerator.of("L64X128MixRandom"));
  }

  /** Polls once; every accepted entry's token is committed at once. */
  PollResult poll(EventLogObjectSource src, String object) throws InterruptedException {
    return poll(src, object, Integer.MAX_VALUE);
  }

  /** Polls once, accepting at most {@code accept} entries (then the "term" stops). */
  PollResult poll(EventLogObjectSource src, String object, int accept) throws InterruptedException {
    StopSignal stop = new StopSignal();
    int[] n = {0};
    return src.pollOnce(
        object,
        e -> {
          if (n[0] >= accept) {
            stop.stop();
            return false;
          }
          n[0]++;
          entries.add(e);
          store.commitMany(
              Map.of(e.checkpoint().key(), e.checkpoint().value()), java.util.Set.of());
          return true;
        },
        stop);
  }

  /** An emitter body that records the entry and commits its token at once. */
  boolean accept(LogEntry e) {
    entries.add(e);
    store.commitMany(Map.of(e.checkpoint().key(), e.checkpoint().value()), java.util.Set.of());
    return true;
  }

  List<LogEntry> real() {
    synchronized (entries) {
      return entries.stream().filter(e -> !e.checkpointOnly()).toList();
    }
  }

  long counter(String name, Attributes attrs) {
    return reader.collectAllMetrics().stream()
        .filter(m -> m.getName().equals(name))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(p -> p.getAttributes().equals(attrs))
        .mapToLong(LongPointData::getValue)
        .sum();
  }

  static Attributes objAttrs(String object) {
    return Attributes.of(Sf2lokiMetrics.SOURCE, "eventlog_objects", Sf2lokiMetrics.OBJECT, object);
  }

  @Override
  public void close() {
    org.close();
    cpu.shutdownNow();
    provider.close();
  }
}
