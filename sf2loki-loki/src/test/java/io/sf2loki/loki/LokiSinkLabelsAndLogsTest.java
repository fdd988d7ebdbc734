package io.sf2loki.loki;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import logproto.PushRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The sink inside a real pipeline against a loopback HTTP server: per-entry labels are sent as they
 * are (SINK-1), and line contents never reach a log event above DEBUG (SINK-11).
 */
class LokiSinkLabelsAndLogsTest {
  private static final String PATH = "/loki/api/v1/push";
  private static final Map<String, String> STATIC =
      Map.of(
          "job", "sf2loki",
          "service_name", "sf2loki",
          "environment", "production",
          "sf_org_id", "00D000000000001EAA");

  private static WireMockServer wm;
  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "1.2.3");
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger sf2lokiLogger = (Logger) LoggerFactory.getLogger("io.sf2loki");
  private Level previousLevel;
  private LokiHttpSink sink;

  @BeforeAll
  static void startServer() {
    wm = new WireMockServer(options().dynamicPort());
    wm.start();
  }

  @AfterAll
  static void stopServer() {
    wm.stop();
  }

  @BeforeEach
  void start() {
    wm.resetAll();
    logs.start();
    previousLevel = sf2lokiLogger.getLevel();
    sf2lokiLogger.setLevel(Level.DEBUG);
    sf2lokiLogger.addAppender(logs);
  }

  @AfterEach
  void stop() {
    sf2lokiLogger.detachAppender(logs);
    sf2lokiLogger.setLevel(previousLevel);
    if (sink != null) {
      sink.close();
    }
    provider.close();
  }

  private LokiSinkSettings settings() {
    return LokiSinkSettings.of(URI.create(wm.baseUrl() + PATH), "1.2.3");
  }

  private boolean runPipeline(LokiSinkSettings s, int maxEntries, List<LogEntry> entries)
      throws Exception {
    sink = new LokiHttpSink(s, metrics, time.sleeper(), new Random(3));
    Pipeline p =
        new Pipeline(
            new PipelineSettings(
                maxEntries,
                1_048_576,
                Duration.ofSeconds(1),
                100,
                0,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                STATIC,
                Duration.ZERO),
            List.of(new ListSource("elf", Lane.BULK, entries)),
            sink,
            store,
            metrics,
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none());
    return p.run(new StopSignal());
  }

  private static LogEntry entry(Map<String, String> labels, String line, String cursor) {
    return LogEntry.of(
        Instant.parse("2025-12-31T23:00:00Z"),
        labels,
        line,
        Map.of("level", "info"),
        new CheckpointToken("eventlogfile:Login", cursor));
  }

  private long dropped(String reason) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_loki_entries_dropped")) {
        for (var p : m.getLongSumData().getPoints()) {
          if (reason.equals(p.getAttributes().get(AttributeKey.stringKey("reason")))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  @Test
  @DisplayName(
      "SINK-1, PIPE-4: per-entry labels (promoted ELF columns, backfill, late) are sent with the"
          + " static labels and are not checked against the static-label allowlist")
  void sink1_perEntryLabelsSentUnchecked() throws Exception {
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(204)));
    Map<String, String> promoted =
        Map.of(
            "USER_TYPE", "Standard",
            "LOGIN_STATUS", "LOGIN_NO_ERROR",
            "source", "eventlogfile",
            "event_type", "Login");
    Map<String, String> backfillLate = new HashMap<>(promoted);
    backfillLate.put("backfill", "true");
    backfillLate.put("late", "true");

    boolean finished =
        runPipeline(
            settings().withEncoding(Encoding.JSON, Compression.NONE),
            10,
            List.of(entry(promoted, "{\"a\": \"1\"}", "c1"), entry(backfillLate, "{}", "c2")));

    assertThat(finished).isTrue();
    var requests = wm.findAll(postRequestedFor(urlEqualTo(PATH)));
    // SPEC SINK-16 (new rule): a fresh sink tracks no stream yet, so each stream goes alone
    assertThat(requests).hasSize(2);
    List<Map<String, String>> streams = new ArrayList<>();
    for (var req : requests) {
      JsonNode body =
          new ObjectMapper().readTree(new String(req.getBody(), StandardCharsets.UTF_8));
      for (JsonNode s : body.get("streams")) {
        Map<String, String> labels = new HashMap<>();
        s.get("stream")
            .fields()
            .forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
        streams.add(labels);
      }
    }
    Map<String, String> want1 = new HashMap<>(STATIC);
    want1.putAll(promoted);
    Map<String, String> want2 = new HashMap<>(want1);
    want2.put("backfill", "true");
    want2.put("late", "true");
    assertThat(streams).containsExactly(want1, want2);
    assertThat(store.snapshot()).containsEntry("eventlogfile:Login", "c2");
  }

  @Test
  @DisplayName("SINK-1, SINK-6: the protobuf label string carries the per-entry labels too")
  void sink1_protobufLabelString() throws Exception {
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(204)));
    runPipeline(
        settings(),
        10,
        List.of(
            entry(
                Map.of("USER_TYPE", "Standard", "source", "eventlogfile", "event_type", "Login"),
                "{}",
                "c1")));
    var requests = wm.findAll(postRequestedFor(urlEqualTo(PATH)));
    PushRequest pr =
        PushRequest.parseFrom(
            new io.sf2loki.loki.encode.SnappyCodec().uncompress(requests.get(0).getBody()));
    assertThat(pr.getStreams(0).getLabels())
        .isEqualTo(
            "{USER_TYPE=\"Standard\",environment=\"production\",event_type=\"Login\","
                + "job=\"sf2loki\",service_name=\"sf2loki\",sf_org_id=\"00D000000000001EAA\","
                + "source=\"eventlogfile\"}");
  }

  private static String rendered(ILoggingEvent e) {
    StringBuilder sb = new StringBuilder(e.getFormattedMessage());
    if (e.getKeyValuePairs() != null) {
      e.getKeyValuePairs()
          .forEach(kv -> sb.append(' ').append(kv.key).append('=').append(kv.value));
    }
    if (e.getArgumentArray() != null) {
      for (Object a : e.getArgumentArray()) {
        sb.append(' ').append(a);
      }
    }
    for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
      sb.append(' ').append(t.getClassName()).append(": ").append(t.getMessage());
    }
    return sb.toString();
  }

  @Test
  @DisplayName(
      "SINK-11, SINK-10, PIPE-8: permanently rejected entries are dropped and counted, and no"
          + " WARN or ERROR event carries line contents")
  void sink11_noLineContentsInLogsAboveDebug() throws Exception {
    // Loki answers 400 to any request holding the poisoned row, 204 otherwise
    wm.stubFor(post(PATH).atPriority(5).willReturn(aResponse().withStatus(204)));
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("POISON"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody("invalid entry: stream '{job=\"sf2loki\"}' rejected")));
    Map<String, String> labels = Map.of("source", "eventlogfile", "event_type", "Login");
    String secret = "SECRET-ROW-CONTENT";
    List<LogEntry> entries =
        List.of(
            entry(labels, "{\"ROW\": \"" + secret + "-1\"}", "c1"),
            entry(labels, "{\"ROW\": \"" + secret + "-2 POISON\"}", "c2"),
            entry(labels, "{\"ROW\": \"" + secret + "-3\"}", "c3"),
            // flushed alone at the end: a single-entry batch rejected as a whole
            entry(labels, "{\"ROW\": \"" + secret + "-4 POISON\"}", "c4"));

    boolean finished =
        runPipeline(settings().withEncoding(Encoding.JSON, Compression.NONE), 3, entries);

    assertThat(finished).isTrue();
    assertThat(dropped("bad_request")).isEqualTo(2);
    assertThat(store.snapshot()).containsEntry("eventlogfile:Login", "c4");
    List<ILoggingEvent> loud =
        logs.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
    assertThat(loud)
        .as("the split drop (WARN) and the whole-batch drop (ERROR) were logged")
        .anyMatch(e -> e.getLevel() == Level.WARN)
        .anyMatch(e -> e.getLevel() == Level.ERROR);
    for (ILoggingEvent e : loud) {
      assertThat(rendered(e)).doesNotContain(secret).doesNotContain("POISON");
    }
  }

  @Test
  @DisplayName(
      "OBS-34: a failed push's ERROR masks the auth token, the URL's basic-auth password and an"
          + " echoed Authorization header in the response body")
  void obs34_failureLogMasksLokiSecrets() throws Exception {
    String token = "l0ki-t0ken-s3cret";
    URI url = URI.create("http://svc:pa55word@localhost:" + wm.port() + PATH);
    wm.stubFor(
        post(PATH)
            .willReturn(
                aResponse()
                    .withStatus(503)
                    .withBody(
                        "upstream refused http://svc:pa55word@loki.example token "
                            + token
                            + "\nAuthorization: Basic c3ZjOnBhNTV3b3Jk")));
    sink =
        new LokiHttpSink(
            LokiSinkSettings.of(url, "1.2.3").withAuth(null, token),
            metrics,
            time.sleeper(),
            new Random(3));
    Map<String, String> labels = Map.of("source", "eventlogfile");
    assertThatThrownBy(() -> sink.push(new Batch(List.of(entry(labels, "x", "c1"))), true))
        .isInstanceOf(RetryableSinkException.class);
    List<String> loud =
        logs.list.stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
            .map(LokiSinkLabelsAndLogsTest::rendered)
            .toList();
    assertThat(loud)
        .singleElement()
        .satisfies(
            l ->
                assertThat(l)
                    .contains("body=upstream refused http://***@loki.example token ***")
                    .contains("Authorization: Basic ***")
                    .doesNotContain("pa55word")
                    .doesNotContain(token)
                    .doesNotContain("c3ZjOnBhNTV3b3Jk"));
  }

  @Test
  @DisplayName(
      "SINK-20: a 401's ERROR and a 400 drop's WARN name the sink's tenant (empty without one)")
  void sink20_failureLogsNameTheTenant() throws Exception {
    wm.stubFor(post(PATH).atPriority(5).willReturn(aResponse().withStatus(401).withBody("no")));
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("POISON"))
            .willReturn(aResponse().withStatus(400).withBody("invalid entry")));
    wm.stubFor(
        post(PATH)
            .atPriority(2)
            .withRequestBody(containing("fine"))
            .willReturn(aResponse().withStatus(204)));
    sink =
        new LokiHttpSink(
            settings().withEncoding(Encoding.JSON, Compression.NONE).withAuth("team-b", null),
            metrics,
            time.sleeper(),
            new Random(3));
    Map<String, String> labels = Map.of("source", "eventlogfile");
    assertThatThrownBy(() -> sink.push(new Batch(List.of(entry(labels, "x", "c1"))), true))
        .isInstanceOf(RetryableSinkException.class);
    sink.push(new Batch(List.of(entry(labels, "POISON", "c2"), entry(labels, "fine", "c3"))), true);
    List<ILoggingEvent> loud =
        logs.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
    assertThat(loud)
        .anyMatch(e -> e.getLevel() == Level.ERROR && rendered(e).contains("status=401"))
        .anyMatch(e -> e.getLevel() == Level.WARN && rendered(e).contains("status=400"))
        .allSatisfy(e -> assertThat(rendered(e)).contains("tenant=team-b"));
  }

  @Test
  @DisplayName(
      "SINK-8, OBS-34: an unreachable Loki is one ERROR line naming the transport error and its"
          + " causes, without a stack trace")
  void sink8_unreachableLokiLogsNoStackTrace() throws Exception {
    int closedPort;
    try (var probe = new java.net.ServerSocket(0)) {
      closedPort = probe.getLocalPort();
    }
    sink =
        new LokiHttpSink(
            LokiSinkSettings.of(URI.create("http://127.0.0.1:" + closedPort + PATH), "1.2.3"),
            metrics,
            time.sleeper(),
            new Random(3));
    Map<String, String> labels = Map.of("source", "eventlogfile");
    assertThatThrownBy(() -> sink.push(new Batch(List.of(entry(labels, "x", "c1"))), true))
        .isInstanceOf(RetryableSinkException.class);
    List<ILoggingEvent> loud =
        logs.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
    assertThat(loud)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getThrowableProxy()).isNull();
              assertThat(rendered(e)).contains("error=ConnectException");
            });
  }
}
