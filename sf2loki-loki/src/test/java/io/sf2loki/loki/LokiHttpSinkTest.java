package io.sf2loki.loki;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.encode.SnappyCodec;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import logproto.PushRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LokiHttpSinkTest {
  private static final String PATH = "/loki/api/v1/push";
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");
  private static WireMockServer wm;

  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private InMemoryMetricReader reader;
  private SdkMeterProvider provider;
  private Sf2lokiMetrics metrics;
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
  void setUp() {
    wm.resetAll();
    reader = InMemoryMetricReader.create();
    provider = SdkMeterProvider.builder().registerMetricReader(reader).build();
    metrics = new Sf2lokiMetrics(provider, "1.2.3");
  }

  @AfterEach
  void tearDown() {
    if (sink != null) {
      sink.close();
    }
    provider.close();
  }

  private LokiHttpSink sink(LokiSinkSettings s) {
    sink = new LokiHttpSink(s, metrics, time.sleeper(), new Random(7));
    return sink;
  }

  private LokiSinkSettings settings() {
    return LokiSinkSettings.of(URI.create(wm.baseUrl() + PATH), "1.2.3");
  }

  private LokiSinkSettings json() {
    return settings().withEncoding(Encoding.JSON, Compression.NONE);
  }

  private static void stub(int status, String body) {
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(status).withBody(body)));
  }

  private static List<LoggedRequest> requests() {
    return wm.findAll(postRequestedFor(urlEqualTo(PATH)));
  }

  private static Batch batch(String... lines) {
    List<LogEntry> entries = new ArrayList<>();
    long t = 1_700_000_000L;
    for (String line : lines) {
      entries.add(
          LogEntry.of(
              Instant.ofEpochSecond(t++, 5),
              Map.of("job", "sf2loki", "source", "eventlogfile"),
              line,
              Map.of("sf_row", line),
              TOKEN));
    }
    entries.add(LogEntry.checkpointOnly(TOKEN));
    return new Batch(entries);
  }

  private long counter(String name) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (LongPointData p : m.getLongSumData().getPoints()) {
          sum += p.getValue();
        }
      }
    }
    return sum;
  }

  private static String body(LoggedRequest r) {
    return new String(r.getBody(), StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("PIPE-26: request bodies are encoded on the CPU executor, not the pushing thread")
  void pipe26_encodesOnCpuExecutor() throws Exception {
    stub(204, "");
    java.util.concurrent.atomic.AtomicInteger tasks =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newSingleThreadExecutor(r -> new Thread(r, "cpu-test"));
    try {
      sink =
          new LokiHttpSink(
              settings(),
              metrics,
              time.sleeper(),
              new Random(7),
              task ->
                  pool.execute(
                      () -> {
                        tasks.incrementAndGet();
                        task.run();
                      }));
      sink.push(batch("a", "b"), false);
      assertThat(tasks).hasValue(1);
      assertThat(requests()).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @DisplayName("SINK-2/SINK-3/SINK-4: 204 success, tenant header, user agent, snappy protobuf")
  void sink2SuccessWithTenantHeader() throws Exception {
    stub(204, "");
    LokiHttpSink s = sink(settings().withAuth("tenant-a", null));
    PushResult result = s.push(batch("a", "b"), false);

    assertThat(result.droppedByReason()).isEmpty();
    List<LoggedRequest> reqs = requests();
    assertThat(reqs).hasSize(1);
    LoggedRequest r = reqs.get(0);
    assertThat(r.getHeader("X-Scope-OrgID")).isEqualTo("tenant-a");
    assertThat(r.containsHeader("Authorization")).isFalse();
    assertThat(r.getHeader("User-Agent")).isEqualTo("sf2loki/1.2.3");
    assertThat(r.getHeader("Content-Type")).isEqualTo("application/x-protobuf");
    assertThat(r.getHeader("Content-Encoding")).isEqualTo("snappy");
    PushRequest pr = PushRequest.parseFrom(new SnappyCodec().uncompress(r.getBody()));
    assertThat(pr.getStreams(0).getEntriesCount()).isEqualTo(2);
    assertThat(pr.getStreams(0).getEntries(0).getStructuredMetadataCount()).isEqualTo(1);
    assertThat(result.bodyBytes()).isEqualTo(r.getBody().length);
    assertThat(counter("sf2loki_loki_bytes_pushed")).isEqualTo(r.getBody().length);
    assertThat(
            metrics.lokiStructuredMetadataEnabled.get(
                io.opentelemetry.api.common.Attributes.empty()))
        .isEqualTo(1.0);
  }

  @Test
  @DisplayName("SINK-2: auth token → Basic tenant:token, no X-Scope-OrgID")
  void sink2BasicAuth() throws Exception {
    stub(204, "");
    sink(settings().withAuth("tenant-a", "s3cret")).push(batch("a"), false);
    LoggedRequest r = requests().get(0);
    assertThat(r.getHeader("Authorization"))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("tenant-a:s3cret".getBytes(StandardCharsets.UTF_8)));
    assertThat(r.containsHeader("X-Scope-OrgID")).isFalse();
    assertThat(settings().withAuth("t", "s3cret").toString()).doesNotContain("s3cret");
  }

  @Test
  @DisplayName("SINK-2: auth token without tenant → Basic :token; no identity → no auth header")
  void sink2BasicAuthWithoutTenant() throws Exception {
    stub(204, "");
    sink(settings().withAuth(null, "tok")).push(batch("a"), false);
    assertThat(requests().get(0).getHeader("Authorization"))
        .isEqualTo("Basic " + Base64.getEncoder().encodeToString(":tok".getBytes()));
    sink.close();
    wm.resetRequests();
    sink(settings()).push(batch("a"), false);
    assertThat(requests().get(0).containsHeader("Authorization")).isFalse();
    assertThat(requests().get(0).containsHeader("X-Scope-OrgID")).isFalse();
  }

  @Test
  @DisplayName("SINK-5/CFG-23: JSON + gzip body decodes with exact ns and metadata")
  void sink5JsonGzip() throws Exception {
    stub(204, "");
    sink(settings().withEncoding(Encoding.JSON, Compression.GZIP)).push(batch("a", "b"), false);
    LoggedRequest r = requests().get(0);
    assertThat(r.getHeader("Content-Type")).isEqualTo("application/json");
    assertThat(r.getHeader("Content-Encoding")).isEqualTo("gzip");
    // WireMock may transparently gunzip; accept either representation
    byte[] raw = r.getBody();
    byte[] plain =
        raw.length > 1 && raw[0] == (byte) 0x1f && raw[1] == (byte) 0x8b
            ? new GZIPInputStream(new ByteArrayInputStream(raw)).readAllBytes()
            : raw;
    JsonNode root = new ObjectMapper().readTree(plain);
    JsonNode values = root.get("streams").get(0).get("values");
    assertThat(values.get(0).get(0).asText()).isEqualTo("1700000000000000005");
    assertThat(values.get(1).get(2).get("sf_row").asText()).isEqualTo("b");
  }

  @Test
  @DisplayName("SINK-9: 429 with Retry-After 3 waits at least 3 s, then succeeds")
  void sink9RetryAfter() throws Exception {
    wm.stubFor(
        post(PATH)
            .inScenario("r")
            .whenScenarioStateIs(Scenario.STARTED)
            .willSetStateTo("ok")
            .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "3")));
    wm.stubFor(
        post(PATH)
            .inScenario("r")
            .whenScenarioStateIs("ok")
            .willReturn(aResponse().withStatus(204)));
    sink(settings()).push(batch("a"), false);
    assertThat(requests()).hasSize(2);
    assertThat(time.sleeps()).hasSize(1);
    assertThat(time.sleeps().get(0)).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
  }

  @Test
  @DisplayName(
      "SINK-9, SINK-17, PIPE-27: the last Retry-After travels with the RetryableSinkException; the"
          + " next push (any lane) waits out the tenant's window at the gate")
  void sink17RetryAfterCarriedAndGated() throws Exception {
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "7")));
    LokiHttpSink s = sink(settings());
    assertThatThrownBy(() -> s.push(batch("a"), false))
        .isInstanceOfSatisfying(
            RetryableSinkException.class,
            e -> assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(7)));
    assertThat(requests()).hasSize(5);
    assertThat(time.sleeps())
        .hasSize(4)
        .allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ofSeconds(7)));

    wm.resetAll();
    stub(204, "");
    s.push(batch("b"), false);
    // the window announced by the 5th answer was not served by an in-sink wait: the gate waits
    assertThat(time.sleeps()).hasSize(5);
    assertThat(time.sleeps().get(4)).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(7));
    assertThat(requests()).hasSize(1);
  }

  @Test
  @DisplayName("SINK-9: Retry-After is capped at 60 s; HTTP-date Retry-After is ignored")
  void sink9RetryAfterCapAndDate() throws Exception {
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "600")));
    assertThatThrownBy(() -> sink(settings()).push(batch("a"), false))
        .isInstanceOf(RetryableSinkException.class);
    assertThat(time.sleeps())
        .hasSize(4)
        .allSatisfy(d -> assertThat(d).isEqualTo(Duration.ofSeconds(60)));

    assertThat(LokiHttpSink.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).isZero();
    assertThat(LokiHttpSink.retryAfter(" 7 ")).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  @DisplayName("SINK-9: 500 ×5 → RetryableSinkException after 5 attempts, jittered waits in range")
  void sink9FiveAttempts() {
    stub(500, "boom");
    assertThatThrownBy(() -> sink(settings()).push(batch("a", "b"), false))
        .isInstanceOf(RetryableSinkException.class)
        .satisfies(e -> assertThat(((RetryableSinkException) e).status()).isEqualTo(500));
    assertThat(requests()).hasSize(5);
    List<Duration> sleeps = time.sleeps();
    assertThat(sleeps).hasSize(4);
    for (int k = 1; k <= 4; k++) {
      Duration upper = Duration.ofSeconds(Math.min(30, 1L << (k - 1)));
      assertThat(sleeps.get(k - 1)).isBetween(Duration.ofMillis(500), upper);
    }
  }

  @Test
  @DisplayName("SINK-9/PIPE-14: singleAttempt → exactly one attempt, no wait")
  void sink9SingleAttempt() {
    stub(503, "");
    assertThatThrownBy(() -> sink(settings()).push(batch("a"), true))
        .isInstanceOf(RetryableSinkException.class);
    assertThat(requests()).hasSize(1);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  @DisplayName("SINK-9: transport error is retried, then RetryableSinkException with status 0")
  void sink9TransportError() {
    wm.stubFor(
        post(PATH)
            .willReturn(
                aResponse()
                    .withFault(
                        com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)));
    assertThatThrownBy(() -> sink(settings()).push(batch("a"), false))
        .isInstanceOf(RetryableSinkException.class)
        .satisfies(e -> assertThat(((RetryableSinkException) e).status()).isZero());
    assertThat(requests()).hasSize(5);
  }

  @ParameterizedTest
  @ValueSource(ints = {260, 401, 403, 404, 302, 418})
  @DisplayName("SINK-8: other 2xx, 401/403/404 and unexpected statuses are retryable at once")
  void sink8RetryableAtOnce(int status) {
    stub(status, "nope");
    assertThatThrownBy(() -> sink(settings()).push(batch("a", "b"), false))
        .isInstanceOf(RetryableSinkException.class)
        .satisfies(e -> assertThat(((RetryableSinkException) e).status()).isEqualTo(status));
    assertThat(requests()).hasSize(1);
    assertThat(time.sleeps()).isEmpty();
    assertThat(counter("sf2loki_loki_bytes_pushed")).isZero();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "no org id\n",
        "error at least one label pair is required per stream",
        "Error parsing labels '{x}' with error: bad"
      })
  @DisplayName("SINK-8: request-wide 400 is retryable and never split")
  void sink8RequestWide400(String body) {
    stub(400, body);
    assertThatThrownBy(() -> sink(settings()).push(batch("a", "b", "c", "d"), false))
        .isInstanceOf(RetryableSinkException.class);
    assertThat(requests()).hasSize(1);
  }

  @Test
  @DisplayName("SINK-10: generic 400 splits; the poison entry is dropped, the rest delivered")
  void sink10SplitIsolatesPoison() throws Exception {
    stub(204, "");
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("POISON"))
            .willReturn(aResponse().withStatus(400).withBody("invalid something")));
    PushResult result = sink(json()).push(batch("a", "b", "POISON", "d"), false);
    assertThat(result.droppedByReason()).isEqualTo(Map.of("bad_request", 1));
    List<String> delivered = new ArrayList<>();
    long bytes = 0;
    for (LoggedRequest r : requests()) {
      if (!body(r).contains("POISON")) {
        delivered.add(body(r));
        bytes += r.getBody().length;
      }
    }
    assertThat(String.join("|", delivered)).contains("\"a\"", "\"b\"", "\"d\"");
    assertThat(result.bodyBytes()).isEqualTo(bytes);
    assertThat(counter("sf2loki_loki_bytes_pushed")).isEqualTo(bytes);
  }

  @Test
  @DisplayName("SINK-10: split-storm guard — identical 400 on both halves is a retryable outage")
  void sink10SplitStormGuard() {
    stub(400, "some request-wide problem");
    assertThatThrownBy(() -> sink(json()).push(batch("a", "b", "c", "d"), false))
        .isInstanceOf(RetryableSinkException.class);
    assertThat(requests()).hasSize(3);
  }

  @Test
  @DisplayName("SINK-10: 413 on a single entry → PermanentSinkException(oversized_413)")
  void sink10Oversized413() {
    stub(413, "request body too large: 9 bytes, limit: 1 bytes");
    assertThatThrownBy(() -> sink(settings()).push(batch("a"), false))
        .isInstanceOfSatisfying(
            PermanentSinkException.class, e -> assertThat(e.reason()).isEqualTo("oversized_413"));
  }

  @Test
  @DisplayName("SINK-8: 422 → PermanentSinkException(bad_request), no split")
  void sink8Unprocessable422() {
    stub(422, "error at least one valid stream is required for ingestion");
    assertThatThrownBy(() -> sink(settings()).push(batch("a", "b"), false))
        .isInstanceOfSatisfying(
            PermanentSinkException.class, e -> assertThat(e.reason()).isEqualTo("bad_request"));
    assertThat(requests()).hasSize(1);
  }

  @Test
  @DisplayName(
      "SINK-10 rule 1: every entry rejected for one reason → handled without splitting (drop"
          + " mode: permanent)")
  void sink10WholeRequestPerEntryReason() {
    stub(
        400,
        "entry with timestamp 2021-11-08 03:30:43 +0000 UTC ignored, reason: 'entry too far"
            + " behind, oldest acceptable timestamp is: 2021-11-08T04:00:00Z',\n"
            + "user 'fake', total ignored: 4 out of 4 for stream: {job=\"sf2loki\"}");
    assertThatThrownBy(
            () ->
                sink(settings().withLateEntries(LokiSinkSettings.LateEntries.DROP))
                    .push(batch("a", "b", "c", "d"), false))
        .isInstanceOfSatisfying(
            PermanentSinkException.class, e -> assertThat(e.reason()).isEqualTo("too_far_behind"));
    assertThat(requests()).hasSize(1);
  }

  @Test
  @DisplayName(
      "SINK-10: per-entry reason on part of a request splits; the late entry is dropped (drop"
          + " mode)")
  void sink10PartialPerEntry() throws Exception {
    stub(204, "");
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("OLD"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody(
                        "entry for stream '{job=\"sf2loki\"}' has timestamp too old: x, oldest"
                            + " acceptable timestamp is: y")));
    PushResult r =
        sink(json().withLateEntries(LokiSinkSettings.LateEntries.DROP))
            .push(batch("a", "OLD", "c"), false);
    assertThat(r.droppedByReason()).isEqualTo(Map.of("too_old", 1));
    assertThat(r.droppedEntries("too_old")) // FEAT-10: the sink names the entry it dropped
        .singleElement()
        .satisfies(e -> assertThat(e.line()).contains("OLD"));
    assertThat(requests()).noneMatch(q -> body(q).contains("\"late\""));
  }

  @Test
  @DisplayName(
      "SINK-10, SINK-16: drops and deliveries of a push that then fails retryably are not repeated"
          + " on retry")
  void sink10MarksSurviveRetry() throws Exception {
    stub(204, "");
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("POISON"))
            .willReturn(aResponse().withStatus(400).withBody("bad")));
    wm.stubFor(
        post(PATH)
            .atPriority(2)
            .withRequestBody(containing("\"c\""))
            .willReturn(aResponse().withStatus(401)));
    Batch b = batch("POISON", "b", "c", "d");
    LokiHttpSink s = sink(json());
    // the retry goes through the batch's delivery, which holds its marks (the sink holds none)
    io.sf2loki.core.spi.Sink.Delivery d = s.open(b);
    assertThatThrownBy(() -> d.push(false, new StopSignal()))
        .isInstanceOf(RetryableSinkException.class);

    wm.resetAll();
    stub(204, "");
    PushResult r = d.push(false, new StopSignal());
    assertThat(r.droppedByReason()).isEqualTo(Map.of("bad_request", 1));
    assertThat(requests()).hasSize(1);
    // SPEC SINK-16 (corrected rule): "b" was delivered by the failed push's split, so the retry
    // re-sends only what Loki has not stored
    assertThat(body(requests().get(0)))
        .doesNotContain("POISON")
        .doesNotContain("\"b\"")
        .contains("\"c\"", "\"d\"");
  }

  @Test
  @DisplayName(
      "SINK-10, SINK-16, PIPE-7: the marks live in the batch's delivery, not in the sink: its retry"
          + " skips what was dropped or delivered; a fresh delivery of the same batch starts over")
  void sink10MarksLiveInTheDelivery() throws Exception {
    stub(204, "");
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("POISON"))
            .willReturn(aResponse().withStatus(400).withBody("bad")));
    wm.stubFor(
        post(PATH)
            .atPriority(2)
            .withRequestBody(containing("\"c\""))
            .willReturn(aResponse().withStatus(401)));
    Batch b = batch("POISON", "b", "c", "d");
    LokiHttpSink s = sink(json());
    io.sf2loki.core.spi.Sink.Delivery d = s.open(b);
    assertThatThrownBy(() -> d.push(false, new io.sf2loki.core.time.StopSignal()))
        .isInstanceOf(RetryableSinkException.class);
    int firstAttemptRequests = requests().size();

    io.sf2loki.core.spi.Sink.Delivery fresh = s.open(b);
    wm.resetRequests();
    assertThatThrownBy(() -> fresh.push(false, new io.sf2loki.core.time.StopSignal()))
        .as("nothing of the first delivery is kept by the sink")
        .isInstanceOf(RetryableSinkException.class);
    assertThat(requests()).hasSize(firstAttemptRequests);
    assertThat(body(requests().get(0))).contains("POISON");

    wm.resetAll();
    stub(204, "");
    PushResult r = d.push(false, new io.sf2loki.core.time.StopSignal());
    assertThat(r.droppedByReason()).isEqualTo(Map.of("bad_request", 1));
    assertThat(requests()).hasSize(1);
    assertThat(body(requests().get(0)))
        .doesNotContain("POISON")
        .doesNotContain("\"b\"")
        .contains("\"c\"", "\"d\"");
  }

  @Test
  @DisplayName(
      "SINK-10, PIPE-7: the sink keeps no per-batch state between calls — push(batch) twice with"
          + " the same instance is two fresh deliveries")
  void sink10PushKeepsNoStateBetweenCalls() throws Exception {
    stub(204, "");
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("POISON"))
            .willReturn(aResponse().withStatus(400).withBody("bad")));
    wm.stubFor(
        post(PATH)
            .atPriority(2)
            .withRequestBody(containing("\"c\""))
            .willReturn(aResponse().withStatus(401)));
    Batch b = batch("POISON", "b", "c", "d");
    LokiHttpSink s = sink(json());
    assertThatThrownBy(() -> s.push(b, false)).isInstanceOf(RetryableSinkException.class);
    wm.resetRequests();
    assertThatThrownBy(() -> s.push(b, false)).isInstanceOf(RetryableSinkException.class);
    assertThat(body(requests().get(0))).contains("POISON", "\"b\"");
  }

  @Test
  @DisplayName("SINK-12: auto — refusal turns metadata off for good, resends once without it")
  void sink12AutoFallback() throws Exception {
    stub(204, "");
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing("sf_row"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody(
                        "stream '{job=\"sf2loki\"}' includes structured metadata, but this feature"
                            + " is disallowed. Please see `limits_config.allow_structured_metadata`"
                            + " or contact your Loki administrator to enable it")));
    LokiHttpSink s = sink(json());
    assertThat(s.metadataEnabled()).isTrue();
    PushResult r = s.push(batch("a", "b"), false);
    assertThat(r.droppedByReason()).isEmpty();
    assertThat(requests()).hasSize(2);
    assertThat(s.metadataEnabled()).isFalse();
    assertThat(
            metrics.lokiStructuredMetadataEnabled.get(
                io.opentelemetry.api.common.Attributes.empty()))
        .isZero();

    wm.resetRequests();
    s.push(batch("c"), false);
    assertThat(requests()).hasSize(1);
    assertThat(body(requests().get(0))).doesNotContain("sf_row");
  }

  @Test
  @DisplayName("SINK-12: on — refusal is a retryable configuration outage; off sends none")
  void sink12OnAndOff() throws Exception {
    stub(400, "structured metadata ... is DISALLOWED");
    assertThatThrownBy(
            () -> sink(json().withStructuredMetadata(MetadataMode.ON)).push(batch("a", "b"), false))
        .isInstanceOf(RetryableSinkException.class);
    assertThat(requests()).hasSize(1);
    sink.close();

    wm.resetAll();
    stub(204, "");
    LokiHttpSink off = sink(json().withStructuredMetadata(MetadataMode.OFF));
    off.push(batch("a"), false);
    assertThat(body(requests().get(0))).doesNotContain("sf_row");
    assertThat(
            metrics.lokiStructuredMetadataEnabled.get(
                io.opentelemetry.api.common.Attributes.empty()))
        .isZero();
  }

  @Test
  @DisplayName("SINK-9: a closed sink aborts an in-sink retry wait")
  void closeAbortsRetryWait() {
    stub(500, "");
    LokiHttpSink s = sink(settings());
    s.close();
    assertThatThrownBy(() -> s.push(batch("a"), false)).isInstanceOf(Exception.class);
  }

  @Test
  @DisplayName("SINK-9/PIPE-14: a fired stop signal ends the in-sink retry wait")
  void sink9StopAwareRetryWait() {
    stub(500, "");
    io.sf2loki.core.time.StopSignal stop = new io.sf2loki.core.time.StopSignal();
    stop.stop();
    assertThatThrownBy(() -> sink(settings()).push(batch("a"), false, stop))
        .isInstanceOf(RetryableSinkException.class);
    assertThat(requests()).hasSize(1);
  }

  @Test
  @DisplayName(
      "PIPE-11: every retryable request failure is reported to the caller's retry layer before"
          + " its wait, so the lane's failing mark starts at the first failed attempt")
  void pipe11_failuresReportedBeforeInSinkWaits() throws Exception {
    stub(500, "boom");
    java.util.concurrent.atomic.AtomicInteger failures =
        new java.util.concurrent.atomic.AtomicInteger();
    List<Integer> failuresAtEachWait = new java.util.concurrent.CopyOnWriteArrayList<>();
    sink = new LokiHttpSink(settings(), metrics, time.sleeper(), new Random(7));
    Batch b = batch("a");
    var delivery =
        sink.open(
            b,
            new io.sf2loki.core.pipeline.RetrySchedule(
                (d, stop) -> {
                  failuresAtEachWait.add(failures.get());
                  return true;
                },
                new Random(7),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                metrics,
                failures::incrementAndGet));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> delivery.push(false, new io.sf2loki.core.time.StopSignal()))
        .isInstanceOf(io.sf2loki.core.spi.RetryableSinkException.class);
    assertThat(failuresAtEachWait).containsExactly(1, 2, 3, 4);
    assertThat(failures.get()).isEqualTo(5);
    assertThat(requests()).hasSize(5);
  }
}
