package io.sf2loki.app.apexlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.apexlog.ApexLogCursor;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.apexlog.ApexLogSource;
import io.sf2loki.salesforce.apexlog.ApexLogSource.Outcome;
import io.sf2loki.salesforce.apexlog.ToolingApi;
import io.sf2loki.salesforce.auth.AuthMode;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.rest.MalformedQueryException;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.sim.org.ApexLogEndpoints;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimApexLog;
import io.sf2loki.sim.org.SimOrg;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ApexLog source against the simulated org over real HTTP (APX-1…APX-9, SRC-17). */
class ApexLogSimOrgTest {
  @TempDir Path tmp;

  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final Collector out = new Collector();
  private final StopSignal stop = new StopSignal();
  private SimOrg org;
  private HttpClient http;
  private SpoolDirectory spool;
  private HttpSalesforceRest rest;

  private final Instant now = Instant.now();

  @BeforeEach
  void setUp() throws IOException {
    org = SimOrg.builder().start();
    http = SalesforceHttpClients.create();
    spool = new SpoolDirectory(tmp, ProcessHandle.current().pid(), p -> true);
    SalesforceAuthSettings auth =
        new SalesforceAuthSettings(
            URI.create(org.instanceUrl()),
            "production",
            AuthMode.CLIENT_CREDENTIALS,
            "sim-client-id",
            "sim-client-secret",
            null,
            null,
            null,
            Duration.ofHours(1));
    TimeSource time = TimeSource.system();
    TokenProvider tokens = new TokenProvider(auth, http, metrics, time);
    rest = new HttpSalesforceRest(tokens, org.apiVersion(), http, metrics, time, spool);
  }

  @AfterEach
  void tearDown() {
    org.close();
    http.close();
    spool.close();
    metrics.close();
    provider.close();
  }

  private ApexLogEndpoints sim() {
    return org.apexLogs();
  }

  private ApexLogSource source(ApexLogSettings s) {
    return new ApexLogSource(
        s,
        ToolingApi.over(rest),
        SourceContext.of(TimeSource.system(), Runnable::run, metrics, store));
  }

  private static ApexLogSettings settings() {
    return ApexLogSettings.defaults(List.of()).withFinite(true);
  }

  private long counter(String name, Map<String, String> attrs) {
    long sum = 0;
    for (var md : reader.collectAllMetrics()) {
      if (md.getName().equals(name)) {
        for (var p : md.getLongSumData().getPoints()) {
          boolean ok = true;
          for (var e : attrs.entrySet()) {
            ok &= e.getValue().equals(p.getAttributes().get(AttributeKey.stringKey(e.getKey())));
          }
          if (ok) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  @Test
  @DisplayName(
      "APX-1/APX-5/SRC-17: 1,000 logs (ties across pages, results split in 50-record batches) are"
          + " delivered exactly once with one listing query per page and one body download per"
          + " log")
  void thousandLogsCallCounts() throws Exception {
    sim().batchSize(50);
    // groups of 7 logs share one StartTime, so page boundaries fall inside tie groups
    List<SimApexLog> logs = new ArrayList<>();
    for (int g = 0; g < 143 && logs.size() < 1000; g++) {
      int n = Math.min(7, 1000 - logs.size());
      logs.addAll(
          sim()
              .generate(
                  n,
                  now.minusSeconds(1800).plusSeconds(g),
                  Duration.ZERO,
                  List.of("u1@x.com", "u2@x.com"),
                  g));
    }
    assertThat(logs).hasSize(1000);

    source(settings()).run(out, stop);

    List<LogEntry> real = out.real();
    assertThat(real).hasSize(1000);
    Map<String, String> bodies = new HashMap<>();
    logs.forEach(l -> bodies.put(l.id(), new String(l.body(), StandardCharsets.UTF_8)));
    List<String> delivered = real.stream().map(e -> e.structuredMetadata().get("Id")).toList();
    assertThat(delivered)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(bodies.keySet());
    for (LogEntry e : real) {
      assertThat(e.line()).isEqualTo(bodies.get(e.structuredMetadata().get("Id")));
    }
    // one drain: 5 full pages + 1 short page; then the finite run's idle poll: 1 query
    assertThat(sim().listingCalls()).isEqualTo(7);
    assertThat(sim().listingMoreCalls()).isEqualTo(5 * 3);
    assertThat(sim().bodyCalls()).isEqualTo(1000);
    System.out.printf(
        "ApexLog calls per 1,000 logs: listing queries %d (incl. 1 idle poll), nextRecordsUrl"
            + " batches %d (batch size 50), body downloads %d%n",
        sim().listingCalls(), sim().listingMoreCalls(), sim().bodyCalls());
    assertThat(counter("sf2loki_apexlog_logs_ingested", Map.of())).isEqualTo(1000);
  }

  @Test
  @DisplayName(
      "APX-8/SRC-17: REQUEST_LIMIT_EXCEEDED mid-drain: no advance past delivered logs, throttled"
          + " counter = 1, recovery next poll")
  void throttleMidDrain() throws Exception {
    List<SimApexLog> logs =
        sim().generate(250, now.minusSeconds(1800), Duration.ofMillis(100), List.of("u@x.com"), 7);
    sim()
        .failListingAfter(
            1,
            Fault.salesforceError(403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."));
    ApexLogSource src = source(settings().withFinite(false));

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.THROTTLED);
    assertThat(out.real()).hasSize(200);
    assertThat(ApexLogCursor.load(out.lastValue(), "x").cursor().lastId())
        .isEqualTo(logs.get(199).id());
    assertThat(counter("sf2loki_salesforce_api_throttled", Map.of("api", "soql"))).isEqualTo(1);

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);
    assertThat(out.real().stream().map(e -> e.structuredMetadata().get("Id")).toList())
        .containsExactlyElementsOf(logs.stream().map(SimApexLog::id).toList());
    assertThat(counter("sf2loki_salesforce_api_throttled", Map.of("api", "soql"))).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "APX-3/APX-6: a body failing twice then succeeding is delivered, the checkpoint never"
          + " skipped it; a body failing three polls ships a flagged metadata line")
  void flakyBodies() throws Exception {
    List<SimApexLog> logs =
        sim().generate(3, now.minusSeconds(600), Duration.ofSeconds(1), List.of("u@x.com"), 3);
    String twice = logs.get(0).id();
    String thrice = logs.get(1).id();
    sim().failBody(twice, Fault.status(500).times(2));
    sim().failBody(thrice, Fault.status(503).times(3));
    ApexLogSource src = source(settings().withFinite(false));

    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      outcomes.add(src.pollOnce(out, stop).outcome());
    }

    assertThat(outcomes)
        .containsExactly(
            Outcome.BODY_FAILED,
            Outcome.BODY_FAILED,
            Outcome.BODY_FAILED, // twice delivered, thrice fails (1)
            Outcome.BODY_FAILED, // thrice fails (2)
            Outcome.CLEAN); // thrice fails (3): flagged, then the third log
    List<LogEntry> real = out.real();
    assertThat(real.stream().map(e -> e.structuredMetadata().get("Id")).toList())
        .containsExactly(twice, thrice, logs.get(2).id());
    assertThat(real.get(0).line())
        .isEqualTo(new String(logs.get(0).body(), StandardCharsets.UTF_8));
    assertThat(real.get(1).structuredMetadata())
        .containsEntry("body_skipped", "true")
        .containsEntry("body_skip_reason", "download_error");
    for (LogEntry e : out.entries()) {
      if (twice.equals(e.structuredMetadata().get("Id"))) {
        break;
      }
      assertThat(ApexLogCursor.load(e.checkpoint().value(), "x").cursor().ids())
          .doesNotContain(twice);
    }
    assertThat(sim().bodyCalls(twice)).isEqualTo(3);
    assertThat(sim().bodyCalls(thrice)).isEqualTo(3);
    assertThat(counter("sf2loki_apexlog_download_errors", Map.of("reason", "HTTP 500")))
        .isEqualTo(2);
    assertThat(counter("sf2loki_apexlog_download_errors", Map.of("reason", "HTTP 503")))
        .isEqualTo(3);
    assertThat(counter("sf2loki_apexlog_bodies_skipped", Map.of("reason", "download_error")))
        .isEqualTo(1);
  }

  @Test
  @DisplayName(
      "APX-1/SRC-18: a username with a quote is escaped and matched by the org; other query"
          + " shapes are rejected with MALFORMED_QUERY")
  void quotedUsernameAndShapes() throws Exception {
    sim().add("o'brien@x.com", now.minusSeconds(120), "theirs");
    sim().add("other@x.com", now.minusSeconds(60), "not theirs");

    source(settings().withUsers(List.of("o'brien@x.com"))).run(out, stop);

    assertThat(out.real()).extracting(LogEntry::line).containsExactly("theirs");
    assertThat(sim().queries().getFirst()).contains("LogUser.Username IN ('o\\'brien@x.com')");
    assertThatThrownBy(() -> rest.toolingQuery("SELECT Id FROM ApexLog"))
        .isInstanceOf(MalformedQueryException.class);
  }

  /** Collects entries. */
  private static final class Collector implements EntryEmitter {
    private final List<LogEntry> entries = new ArrayList<>();

    @Override
    public synchronized boolean emit(LogEntry entry) {
      entries.add(entry);
      return true;
    }

    synchronized List<LogEntry> entries() {
      return List.copyOf(entries);
    }

    synchronized List<LogEntry> real() {
      return entries.stream().filter(e -> !e.checkpointOnly()).toList();
    }

    synchronized String lastValue() {
      return entries.getLast().checkpoint().value();
    }
  }
}
