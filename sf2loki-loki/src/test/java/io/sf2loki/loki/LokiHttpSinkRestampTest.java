package io.sf2loki.loki;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
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
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.LokiSinkSettings.LateEntries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LokiHttpSinkRestampTest {
  private static final String PATH = "/loki/api/v1/push";
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant EVENT = Instant.parse("2024-06-05T05:41:17.937Z");
  private static final Map<String, String> LABELS = Map.of("job", "sf2loki", "source", "elf");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String TOO_FAR_BEHIND =
      "entry too far behind, entry timestamp is: 2024-06-05T05:41:17Z, oldest acceptable"
          + " timestamp is: 2026-01-01T00:00:00Z";
  private static final String TOO_OLD =
      "entry for stream '{job=\"sf2loki\", source=\"elf\"}' has timestamp too old:"
          + " 2024-06-05T05:41:17Z, oldest acceptable timestamp is: 2025-12-25T00:00:00Z";
  private static final String TOO_NEW =
      "entry for stream '{job=\"sf2loki\", source=\"elf\"}' has timestamp too new:"
          + " 2027-01-01T00:00:00Z";
  private static final String LINE_TOO_LONG =
      "max entry size '262144' bytes exceeded for stream '{job=\"sf2loki\", source=\"elf\"}'"
          + " while adding an entry with length '300000' bytes";

  private static WireMockServer wm;

  private final FakeTime time = new FakeTime(NOW);
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
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(204)));
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

  // ---------------------------------------------------------------- helpers

  private LokiHttpSink sink(LokiSinkSettings s) {
    sink = new LokiHttpSink(s, metrics, time.sleeper(), new Random(7), Runnable::run, time.wall());
    return sink;
  }

  private static LokiSinkSettings json() {
    return LokiSinkSettings.of(URI.create(wm.baseUrl() + PATH), "1.2.3")
        .withEncoding(Encoding.JSON, Compression.NONE);
  }

  /** Original (un-restamped) requests containing {@code marker} get 400 {@code body}. */
  private static void rejectOriginal(String marker, String body) {
    wm.stubFor(
        post(PATH)
            .atPriority(2)
            .withRequestBody(containing(marker))
            .withRequestBody(notContaining("\"late\""))
            .willReturn(aResponse().withStatus(400).withBody(body + "\n")));
  }

  /** Restamped requests containing {@code marker} get {@code status} with {@code body}. */
  private static void rejectRestamped(String marker, int status, String body) {
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .withRequestBody(containing(marker))
            .withRequestBody(containing("\"late\""))
            .willReturn(aResponse().withStatus(status).withBody(body + "\n")));
  }

  private static LogEntry entry(Instant ts, String line) {
    return LogEntry.of(ts, LABELS, line, Map.of("level", "INFO", "sf_row", line), TOKEN);
  }

  private static Batch batch(LogEntry... entries) {
    List<LogEntry> all = new ArrayList<>(List.of(entries));
    all.add(LogEntry.checkpointOnly(TOKEN));
    return new Batch(all);
  }

  /** Push requests in arrival order. */
  private static List<LoggedRequest> requests() {
    return wm.getAllServeEvents().reversed().stream()
        .map(e -> e.getRequest())
        .filter(r -> r.getUrl().equals(PATH))
        .toList();
  }

  /** A pushed JSON value with its stream's labels. */
  private record Sent(Map<String, String> labels, long ns, String line, Map<String, String> md) {}

  private static List<Sent> sent(LoggedRequest r) {
    try {
      List<Sent> out = new ArrayList<>();
      for (JsonNode s : JSON.readTree(r.getBody()).get("streams")) {
        Map<String, String> labels = new HashMap<>();
        s.get("stream").properties().forEach(p -> labels.put(p.getKey(), p.getValue().asText()));
        for (JsonNode v : s.get("values")) {
          Map<String, String> md = new LinkedHashMap<>();
          v.get(2).properties().forEach(p -> md.put(p.getKey(), p.getValue().asText()));
          out.add(new Sent(labels, Long.parseLong(v.get(0).asText()), v.get(1).asText(), md));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every value of every request that was answered 204, in order. */
  private static List<Sent> delivered() {
    List<Sent> out = new ArrayList<>();
    for (var e : wm.getAllServeEvents().reversed()) {
      if (e.getResponse().getStatus() == 204) {
        out.addAll(sent(e.getRequest()));
      }
    }
    return out;
  }

  private static List<Sent> deliveredLate() {
    return delivered().stream().filter(s -> "true".equals(s.labels().get("late"))).toList();
  }

  private Map<String, Long> counterByReason(String name) {
    Map<String, Long> out = new HashMap<>();
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (LongPointData p : m.getLongSumData().getPoints()) {
          if (p.getValue() != 0) {
            out.put(p.getAttributes().get(Sf2lokiMetrics.REASON), p.getValue());
          }
        }
      }
    }
    return out;
  }

  private static long ns(Instant t) {
    return TimeUnit.SECONDS.toNanos(t.getEpochSecond()) + t.getNano();
  }

  // ---------------------------------------------------------------- tests

  @Test
  @DisplayName(
      "SINK-13: too-far-behind entries are restamped once: now, strictly increasing per stream,"
          + " late=\"true\", event_time, line unchanged, counted by reason")
  void restampsTooFarBehind() throws Exception {
    rejectOriginal("OLD-", TOO_FAR_BEHIND);
    LogEntry fresh = entry(NOW.minusSeconds(5), "fresh");
    LogEntry a = entry(EVENT, "OLD-a");
    LogEntry b = entry(EVENT, "OLD-b"); // same original timestamp as a
    PushResult r = sink(json()).push(batch(fresh, a, b), false);

    assertThat(r.droppedByReason()).isEmpty();
    List<Sent> late = deliveredLate();
    assertThat(late).extracting(Sent::line).containsExactly("OLD-a", "OLD-b");
    assertThat(late)
        .allSatisfy(
            s -> {
              assertThat(s.labels())
                  .isEqualTo(Map.of("job", "sf2loki", "source", "elf", "late", "true"));
              assertThat(s.md())
                  .containsEntry("event_time", "2024-06-05T05:41:17.937000000Z")
                  .containsEntry("level", "INFO")
                  .containsEntry("sf_row", s.line());
            });
    assertThat(late.get(0).ns()).isEqualTo(ns(NOW));
    assertThat(late.get(1).ns()).isEqualTo(ns(NOW) + 1);
    assertThat(delivered())
        .filteredOn(s -> s.labels().get("late") == null)
        .extracting(Sent::line)
        .containsExactly("fresh");
    assertThat(counterByReason("sf2loki_loki_entries_restamped"))
        .isEqualTo(Map.of("too_far_behind", 2L));
  }

  @Test
  @DisplayName(
      "SINK-13: the restamp clock is per sink (process) lifetime — later batches keep increasing")
  void restampClockSpansBatches() throws Exception {
    rejectOriginal("OLD-", TOO_OLD);
    LokiHttpSink s = sink(json());
    s.push(batch(entry(EVENT, "OLD-1")), false);
    s.push(batch(entry(EVENT.plusSeconds(1), "OLD-2")), false);
    List<Sent> late = deliveredLate();
    assertThat(late).extracting(Sent::line).containsExactly("OLD-1", "OLD-2");
    assertThat(late.get(1).ns()).isEqualTo(late.get(0).ns() + 1);
    assertThat(counterByReason("sf2loki_loki_entries_restamped")).isEqualTo(Map.of("too_old", 2L));
    assertThat(late.get(1).md()).containsEntry("event_time", "2024-06-05T05:41:18.937000000Z");
  }

  @Test
  @DisplayName(
      "SINK-10 rule 1/SINK-13: a request rejected entirely as too far behind is restamped without"
          + " splitting (ingester 'total ignored' body)")
  void wholeRequestRestamped() throws Exception {
    rejectOriginal(
        "OLD-",
        "entry with timestamp 2024-06-05 05:41:17.937 +0000 UTC ignored, reason: '"
            + TOO_FAR_BEHIND
            + "',\nuser 'fake', total ignored: 3 out of 3 for stream:"
            + " {job=\"sf2loki\", source=\"elf\"}");
    PushResult r =
        sink(json())
            .push(
                batch(entry(EVENT, "OLD-1"), entry(EVENT, "OLD-2"), entry(EVENT, "OLD-3")), false);
    assertThat(r.droppedByReason()).isEmpty();
    assertThat(requests()).hasSize(2);
    assertThat(deliveredLate()).extracting(Sent::line).containsExactly("OLD-1", "OLD-2", "OLD-3");
  }

  @Test
  @DisplayName(
      "SINK-13: a restamped entry rejected again is dropped under its new reason, never"
          + " restamped twice")
  void rejectedAgainIsDropped() throws Exception {
    rejectOriginal("OLD-", TOO_OLD);
    rejectRestamped("OLD-x", 400, TOO_NEW);
    rejectRestamped("OLD-y", 400, TOO_FAR_BEHIND);
    PushResult r =
        sink(json())
            .push(batch(entry(EVENT, "OLD-x"), entry(EVENT, "ok"), entry(EVENT, "OLD-y")), false);

    assertThat(r.droppedByReason()).isEqualTo(Map.of("too_new", 1, "too_far_behind", 1));
    assertThat(counterByReason("sf2loki_loki_entries_restamped")).isEqualTo(Map.of("too_old", 2L));
    long lateRequests =
        requests().stream().filter(q -> q.getBodyAsString().contains("\"late\"")).count();
    // one follow-up request with both, then its split halves; nothing restamped again
    assertThat(lateRequests).isEqualTo(3);
    for (LoggedRequest q : requests()) {
      for (Sent s : sent(q)) {
        if (s.labels().containsKey("late")) {
          assertThat(s.md()).containsKey("event_time");
        }
      }
    }
    assertThat(deliveredLate()).isEmpty();
    assertThat(delivered()).extracting(Sent::line).containsExactly("ok");
  }

  @Test
  @DisplayName(
      "SINK-13: a single-entry batch restamped and rejected again → PushResult drop, not an"
          + " exception")
  void singleEntryRejectedAgain() throws Exception {
    rejectOriginal("OLD-", TOO_FAR_BEHIND);
    rejectRestamped("OLD-", 400, TOO_FAR_BEHIND);
    PushResult r = sink(json()).push(batch(entry(EVENT, "OLD-1")), false);
    assertThat(r.droppedByReason()).isEqualTo(Map.of("too_far_behind", 1));
    assertThat(requests()).hasSize(2);
    assertThat(counterByReason("sf2loki_loki_entries_restamped"))
        .isEqualTo(Map.of("too_far_behind", 1L));
  }

  @Test
  @DisplayName("SINK-13: drop mode drops too-far-behind and too-old entries and counts them")
  void dropMode() throws Exception {
    rejectOriginal("FAR", TOO_FAR_BEHIND);
    rejectOriginal("AGED", TOO_OLD);
    PushResult r =
        sink(json().withLateEntries(LateEntries.DROP))
            .push(batch(entry(EVENT, "a"), entry(EVENT, "FAR"), entry(EVENT, "AGED")), false);
    assertThat(r.droppedByReason()).isEqualTo(Map.of("too_far_behind", 1, "too_old", 1));
    assertThat(requests()).noneMatch(q -> q.getBodyAsString().contains("\"late\""));
    assertThat(counterByReason("sf2loki_loki_entries_restamped")).isEmpty();
    assertThat(delivered()).extracting(Sent::line).containsExactly("a");
  }

  @Test
  @DisplayName("SINK-13/SINK-10: drop mode — a whole batch rejected as too old is permanent")
  void dropModeWholeBatch() {
    rejectOriginal("OLD-", TOO_OLD);
    assertThatThrownBy(
            () ->
                sink(json().withLateEntries(LateEntries.DROP))
                    .push(batch(entry(EVENT, "OLD-1")), false))
        .isInstanceOfSatisfying(
            PermanentSinkException.class, e -> assertThat(e.reason()).isEqualTo("too_old"));
    assertThat(requests()).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(LateEntries.class)
  @DisplayName(
      "SINK-13 (corrected): line_too_long is dropped in both modes; too_new is restamped under"
          + " restamp and dropped under drop")
  void tooNewAndLineTooLongDropped(LateEntries mode) throws Exception {
    rejectOriginal("NEW", TOO_NEW);
    rejectOriginal("LONG", LINE_TOO_LONG);
    PushResult r =
        sink(json().withLateEntries(mode))
            .push(batch(entry(EVENT, "a"), entry(EVENT, "NEW"), entry(EVENT, "LONG")), false);
    if (mode == LateEntries.DROP) {
      assertThat(r.droppedByReason()).isEqualTo(Map.of("too_new", 1, "line_too_long", 1));
      assertThat(requests()).noneMatch(q -> q.getBodyAsString().contains("\"late\""));
      assertThat(counterByReason("sf2loki_loki_entries_restamped")).isEmpty();
    } else {
      assertThat(r.droppedByReason()).isEqualTo(Map.of("line_too_long", 1));
      assertThat(counterByReason("sf2loki_loki_entries_restamped")).containsEntry("too_new", 1L);
      assertThat(delivered())
          .filteredOn(d -> d.line().equals("NEW"))
          .singleElement()
          .satisfies(d -> assertThat(d.labels()).containsEntry("late", "true"));
    }
  }

  @Test
  @DisplayName(
      "SINK-13/SINK-10: a retryable failure after partial restamping — the retry of the same batch"
          + " re-sends only undelivered restamps, in the same restamped form, counting nothing"
          + " twice")
  void retryAfterPartialRestamp() throws Exception {
    rejectOriginal(
        "OLD-",
        "entry with timestamp 2024-06-05 05:41:17.937 +0000 UTC ignored, reason: '"
            + TOO_FAR_BEHIND
            + "',\nuser 'fake', total ignored: 4 out of 4 for stream:"
            + " {job=\"sf2loki\", source=\"elf\"}");
    rejectRestamped("OLD-3", 401, "unauthorized");
    Batch b =
        batch(
            entry(EVENT, "OLD-1"),
            entry(EVENT, "OLD-2"),
            entry(EVENT, "OLD-3"),
            entry(EVENT, "OLD-4"));
    LokiHttpSink s = sink(json().withBatchLimits(2, 0));
    Sink.Delivery d = s.open(b); // holds the batch's marks across its attempts
    assertThatThrownBy(() -> d.push(false, new StopSignal()))
        .isInstanceOf(RetryableSinkException.class);
    assertThat(requests()).hasSize(3); // the batch, follow-up [1,2] ok, follow-up [3,4] 401
    List<Sent> firstTry = sent(requests().get(2)); // the 401 follow-up
    assertThat(firstTry).extracting(Sent::line).containsExactly("OLD-3", "OLD-4");

    wm.resetAll();
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(204)));
    time.advance(Duration.ofMinutes(5));
    PushResult r = d.push(false, new StopSignal());

    assertThat(r.droppedByReason()).isEmpty();
    assertThat(requests()).hasSize(1);
    List<Sent> retry = sent(requests().get(0));
    assertThat(retry).extracting(Sent::line).containsExactly("OLD-3", "OLD-4");
    assertThat(retry).extracting(Sent::ns).containsExactly(ns(NOW) + 2, ns(NOW) + 3);
    assertThat(retry).extracting(Sent::ns).isEqualTo(firstTry.stream().map(Sent::ns).toList());
    assertThat(counterByReason("sf2loki_loki_entries_restamped"))
        .isEqualTo(Map.of("too_far_behind", 4L));
  }

  @Test
  @DisplayName(
      "SINK-13/SINK-10: drops of restamped entries before a retryable failure are reported once,"
          + " on the successful retry")
  void dropsOfRestampedSurviveRetry() throws Exception {
    rejectOriginal("OLD-", TOO_OLD);
    rejectRestamped("OLD-1", 400, TOO_NEW);
    rejectRestamped("OLD-2", 503, "unavailable");
    Batch b = batch(entry(EVENT, "OLD-1"), entry(EVENT, "OLD-2"));
    LokiHttpSink s = sink(json().withBatchLimits(1, 0));
    Sink.Delivery d = s.open(b);
    assertThatThrownBy(() -> d.push(true, new StopSignal()))
        .isInstanceOf(RetryableSinkException.class);

    wm.resetAll();
    wm.stubFor(post(PATH).willReturn(aResponse().withStatus(204)));
    PushResult r = d.push(false, new StopSignal());
    assertThat(r.droppedByReason()).isEqualTo(Map.of("too_new", 1));
    assertThat(deliveredLate()).extracting(Sent::line).containsExactly("OLD-2");
    assertThat(requests()).hasSize(1);
    assertThat(counterByReason("sf2loki_loki_entries_restamped")).isEqualTo(Map.of("too_old", 2L));
  }

  @Test
  @DisplayName("SINK-13/PIPE-5: follow-up requests are closed at max_bytes (Σ line bytes + 64)")
  void followUpsSplitByBytes() throws Exception {
    rejectOriginal("OLD-", TOO_OLD);
    String pad = "x".repeat(40);
    PushResult r =
        sink(json().withBatchLimits(1000, 150))
            .push(
                batch(
                    entry(EVENT, "OLD-1" + pad),
                    entry(EVENT, "OLD-2" + pad),
                    entry(EVENT, "OLD-3" + pad)),
                false);
    assertThat(r.droppedByReason()).isEmpty();
    List<Integer> sizes = new ArrayList<>();
    for (var e : wm.getAllServeEvents().reversed()) {
      if (e.getRequest().getBodyAsString().contains("\"late\"")) {
        sizes.add(sent(e.getRequest()).size());
      }
    }
    // 109 bytes per entry: the second one reaches 150, so [1,2] then [3]
    assertThat(sizes).containsExactly(2, 1);
  }

  @Test
  @DisplayName("SINK-13/SINK-12: metadata off → restamped entries carry no event_time")
  void metadataOffNoEventTime() throws Exception {
    rejectOriginal("OLD-", TOO_OLD);
    sink(json().withStructuredMetadata(MetadataMode.OFF)).push(batch(entry(EVENT, "OLD-1")), false);
    List<Sent> late = deliveredLate();
    assertThat(late).hasSize(1);
    assertThat(late.get(0).line()).isEqualTo("OLD-1");
    assertThat(late.get(0).md()).isEmpty();
    assertThat(requests()).noneMatch(q -> q.getBodyAsString().contains("event_time"));
  }

  @Test
  @DisplayName("SINK-13: protobuf restamps carry late label and event_time metadata")
  void protobufRestamp() throws Exception {
    wm.stubFor(
        post(PATH)
            .atPriority(1)
            .inScenario("once")
            .whenScenarioStateIs(Scenario.STARTED)
            .willSetStateTo("rejected")
            .willReturn(aResponse().withStatus(400).withBody(TOO_OLD)));
    sink(LokiSinkSettings.of(URI.create(wm.baseUrl() + PATH), "1.2.3"))
        .push(batch(entry(EVENT, "OLD-1")), false);
    List<LoggedRequest> reqs = requests();
    assertThat(reqs).hasSize(2);
    logproto.PushRequest pr =
        logproto.PushRequest.parseFrom(
            new io.sf2loki.loki.encode.SnappyCodec().uncompress(reqs.get(1).getBody()));
    assertThat(pr.getStreams(0).getLabels())
        .isEqualTo("{job=\"sf2loki\",late=\"true\",source=\"elf\"}");
    var e = pr.getStreams(0).getEntries(0);
    assertThat(e.getTimestamp().getSeconds()).isEqualTo(NOW.getEpochSecond());
    assertThat(e.getLine()).isEqualTo("OLD-1");
    assertThat(e.getStructuredMetadataList())
        .anySatisfy(
            p -> {
              assertThat(p.getName()).isEqualTo("event_time");
              assertThat(p.getValue()).isEqualTo("2024-06-05T05:41:17.937000000Z");
            });
  }
}
