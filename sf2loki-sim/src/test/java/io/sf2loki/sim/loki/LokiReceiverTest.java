package io.sf2loki.sim.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Timestamp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import logproto.EntryAdapter;
import logproto.LabelPairAdapter;
import logproto.PushRequest;
import logproto.StreamAdapter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class LokiReceiverTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private LokiReceiver loki;

  @BeforeEach
  void start() throws IOException {
    loki = LokiReceiver.builder().maxLineBytes(64).start();
  }

  @AfterEach
  void stop() {
    loki.close();
  }

  private static EntryAdapter entry(long sec, int nanos, String line, String... md) {
    EntryAdapter.Builder b =
        EntryAdapter.newBuilder()
            .setTimestamp(Timestamp.newBuilder().setSeconds(sec).setNanos(nanos))
            .setLine(line);
    for (int i = 0; i < md.length; i += 2) {
      b.addStructuredMetadata(LabelPairAdapter.newBuilder().setName(md[i]).setValue(md[i + 1]));
    }
    return b.build();
  }

  private static byte[] proto(String labels, EntryAdapter... entries) throws IOException {
    PushRequest req =
        PushRequest.newBuilder()
            .addStreams(
                StreamAdapter.newBuilder().setLabels(labels).addAllEntries(List.of(entries)))
            .build();
    return Snappy.compress(req.toByteArray());
  }

  private HttpResponse<String> post(byte[] body, String contentType, String encoding)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(loki.pushUrl()))
            .header("Content-Type", contentType)
            .header("Authorization", "Basic dGVuYW50OnRva2Vu")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (encoding != null) {
      b.header("Content-Encoding", encoding);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> postProto(byte[] body) throws Exception {
    return post(body, "application/x-protobuf", "snappy");
  }

  @Test
  @DisplayName("SINK-4: protobuf + snappy push is decoded, stored with exact nanos, answered 204")
  void protobufSnappy() throws Exception {
    HttpResponse<String> r =
        postProto(
            proto(
                "{event_type=\"Login\",source=\"eventlogfile\"}",
                entry(1717566077L, 937_000_001, "line one", "level", "info", "a", "b"),
                entry(1717566078L, 0, "line \"two\"")));
    assertThat(r.statusCode()).isEqualTo(204);
    List<ReceivedEntry> got = loki.entries(Map.of("source", "eventlogfile"));
    assertThat(got).hasSize(2);
    assertThat(got.get(0).timestamp()).isEqualTo(Instant.ofEpochSecond(1717566077L, 937_000_001));
    assertThat(got.get(0).labels())
        .containsExactly(Map.entry("event_type", "Login"), Map.entry("source", "eventlogfile"));
    assertThat(got.get(0).structuredMetadata())
        .containsExactly(Map.entry("level", "info"), Map.entry("a", "b"));
    assertThat(got.get(1).line()).isEqualTo("line \"two\"");
    assertThat(loki.entries(Map.of("source", "other"))).isEmpty();
    assertThat(loki.streams()).hasSize(1);
    assertThat(loki.totalEntries()).isEqualTo(2);
    assertThat(loki.requestCount()).isEqualTo(1);
    RecordedRequest req = loki.requests().get(0);
    assertThat(req.header("Authorization")).isEqualTo("Basic dGVuYW50OnRva2Vu");
    assertThat(req.header("content-encoding")).isEqualTo("snappy");
    assertThat(req.status()).isEqualTo(204);
  }

  @Test
  @DisplayName("SINK-5: JSON + gzip push with metadata and ns strings")
  void jsonGzip() throws Exception {
    String json =
        "{\"streams\":[{\"stream\":{\"source\":\"apexlog\",\"job\":\"x\"},\"values\":["
            + "[\"1717566077937000000\",\"hello\",{\"level\":\"warn\"}],"
            + "[\"1717566077937000001\",\"world\",{}]]}]}";
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
      gz.write(json.getBytes(StandardCharsets.UTF_8));
    }
    HttpResponse<String> r = post(bos.toByteArray(), "application/json", "gzip");
    assertThat(r.statusCode()).isEqualTo(204);
    List<ReceivedEntry> got = loki.entries(Map.of("job", "x"));
    assertThat(got).extracting(ReceivedEntry::line).containsExactly("hello", "world");
    assertThat(got.get(0).timestamp()).isEqualTo(Instant.parse("2024-06-05T05:41:17.937Z"));
    assertThat(got.get(1).timestamp().getNano()).isEqualTo(937_000_001);
    assertThat(got.get(0).structuredMetadata()).containsEntry("level", "warn");

    HttpResponse<String> plain =
        post(
            json.replace("hello", "again").getBytes(StandardCharsets.UTF_8),
            "application/json",
            null);
    assertThat(plain.statusCode()).isEqualTo(204);
    assertThat(post(json.getBytes(StandardCharsets.UTF_8), "application/json", "br").body())
        .isEqualTo("Content-Encoding \"br\" not supported\n");
  }

  @Test
  @DisplayName("SINK-8: validation errors answer 400 with Loki's text; valid entries are kept")
  void validationErrors() throws Exception {
    HttpResponse<String> tooLong =
        postProto(proto("{job=\"x\"}", entry(1, 0, "ok"), entry(2, 0, "x".repeat(65))));
    assertThat(tooLong.statusCode()).isEqualTo(400);
    assertThat(tooLong.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
    assertThat(tooLong.body())
        .isEqualTo(
            "max entry size '64' bytes exceeded for stream '{job=\"x\"}' while adding an entry"
                + " with length '65' bytes\n");
    assertThat(loki.entries(Map.of("job", "x")))
        .extracting(ReceivedEntry::line)
        .containsExactly("ok");

    HttpResponse<String> twice =
        postProto(proto("{job=\"x\"}", entry(3, 0, "y".repeat(65)), entry(4, 0, "y".repeat(65))));
    assertThat(twice.body()).startsWith("2 errors like: max entry size '64' bytes exceeded");

    HttpResponse<String> badLabels = postProto(proto("{job=x}", entry(1, 0, "a")));
    assertThat(badLabels.statusCode()).isEqualTo(400);
    assertThat(badLabels.body()).startsWith("error parsing labels '{job=x}' with error: ");
    assertThat(postProto(proto("{}", entry(1, 0, "a"))).body())
        .isEqualTo("error at least one label pair is required per stream\n");
    assertThat(postProto(proto("{a=\"1\", a=\"2\"}", entry(1, 0, "a"))).body())
        .contains("has duplicate label name: 'a'");
    HttpResponse<String> noTs =
        postProto(proto("{job=\"x\"}", EntryAdapter.newBuilder().setLine("n").build()));
    assertThat(noTs.statusCode()).isEqualTo(400);

    HttpResponse<String> none =
        postProto(Snappy.compress(PushRequest.getDefaultInstance().toByteArray()));
    assertThat(none.statusCode()).isEqualTo(422);
    assertThat(postProto(new byte[] {1, 2, 3, 4}).statusCode()).isEqualTo(400);
  }

  @Test
  @DisplayName("SINK-6: the label string parses with escapes, with or without a space after commas")
  void labelEscapes() throws Exception {
    assertThat(
            postProto(
                    proto(
                        "{a=\"q\\\"uote\", b=\"back\\\\slash\",c=\"new\\nline\"}",
                        entry(1, 0, "l")))
                .statusCode())
        .isEqualTo(204);
    assertThat(loki.streams().get(0))
        .containsExactly(
            Map.entry("a", "q\"uote"), Map.entry("b", "back\\slash"), Map.entry("c", "new\nline"));
  }

  @Test
  @DisplayName("SRC-13: duplicates (same stream, ns timestamp, line) collapse")
  void duplicatesCollapse() throws Exception {
    postProto(proto("{job=\"x\"}", entry(1, 5, "a"), entry(1, 5, "b")));
    postProto(proto("{job=\"x\"}", entry(1, 5, "a", "m", "different")));
    assertThat(loki.totalEntries()).isEqualTo(2);
    assertThat(loki.duplicatesDropped()).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "FEAT-18: maxHistory keeps the newest N entries and requests; the counters keep counting")
  void historyCap() throws Exception {
    try (LokiReceiver capped = LokiReceiver.builder().maxHistory(3).start()) {
      loki.close();
      loki = capped;
      postProto(proto("{job=\"x\"}", entry(1, 0, "a"), entry(2, 0, "b")));
      postProto(proto("{job=\"y\"}", entry(3, 0, "c")));
      postProto(proto("{job=\"x\"}", entry(4, 0, "d"), entry(5, 0, "e")));
      postProto(proto("{job=\"z\"}", entry(6, 0, "f")));

      assertThat(capped.totalEntries()).isEqualTo(6);
      assertThat(capped.retainedEntries()).isEqualTo(3);
      assertThat(capped.entries()).extracting(ReceivedEntry::line).containsExactly("d", "e", "f");
      assertThat(capped.streams())
          .containsExactly(Map.of("job", "x"), Map.of("job", "z")); // y has nothing left
      assertThat(capped.requestCount()).isEqualTo(4);
      assertThat(capped.requests()).hasSize(3);

      // a dropped entry no longer collapses a duplicate; a kept one still does
      postProto(proto("{job=\"x\"}", entry(1, 0, "a"), entry(5, 0, "e")));
      assertThat(capped.duplicatesDropped()).isEqualTo(1);
      assertThat(capped.entries()).extracting(ReceivedEntry::line).containsExactly("e", "a", "f");
      assertThat(capped.totalEntries()).isEqualTo(7);
    }
  }

  @Test
  @DisplayName("FEAT-18: without maxHistory every entry and request is kept")
  void historyUnboundedByDefault() throws Exception {
    for (int i = 0; i < 5; i++) {
      postProto(proto("{job=\"x\"}", entry(i, 0, "l" + i)));
    }
    assertThat(loki.entries()).hasSize(5);
    assertThat(loki.retainedEntries()).isEqualTo(5);
    assertThat(loki.requests()).hasSize(5);
  }

  @Test
  @DisplayName("SINK-9: 429 with Retry-After and 5xx faults for N requests, then recovery")
  void faults() throws Exception {
    loki.faults()
        .add(LokiFault.tooManyRequests(Duration.ofSeconds(7)))
        .add(LokiFault.status(503).times(2));
    byte[] body = proto("{job=\"x\"}", entry(1, 0, "a"));
    HttpResponse<String> r429 = postProto(body);
    assertThat(r429.statusCode()).isEqualTo(429);
    assertThat(r429.headers().firstValue("Retry-After")).hasValue("7");
    assertThat(r429.body()).startsWith("ingestion rate limit exceeded");
    assertThat(postProto(body).statusCode()).isEqualTo(503);
    assertThat(postProto(body).statusCode()).isEqualTo(503);
    assertThat(postProto(body).statusCode()).isEqualTo(204);
    assertThat(loki.totalEntries()).isEqualTo(1);

    loki.faults().add(LokiFault.status(500).untilCleared());
    assertThat(postProto(body).statusCode()).isEqualTo(500);
    assertThat(postProto(body).statusCode()).isEqualTo(500);
    loki.faults().clear();
    assertThat(postProto(body).statusCode()).isEqualTo(204);
  }

  @Test
  @DisplayName(
      "SINK-3: a stall holds a push past the client's timeout, then stores it (answered late);"
          + " clear() releases held requests and the client's retry collapses as a duplicate")
  void stallHoldsThenStores() throws Exception {
    loki.faults().stall(Duration.ofMinutes(10));
    byte[] body = proto("{job=\"x\"}", entry(1, 0, "a"));
    HttpRequest timed =
        HttpRequest.newBuilder(URI.create(loki.pushUrl()))
            .header("Content-Type", "application/x-protobuf")
            .header("Content-Encoding", "snappy")
            .timeout(Duration.ofMillis(200))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    assertThatThrownBy(() -> http.send(timed, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    await().atMost(Duration.ofSeconds(10)).until(() -> loki.faults().stalledRequests() == 1);
    assertThat(loki.totalEntries()).as("held, not stored yet").isZero();

    loki.faults().clear();
    await().atMost(Duration.ofSeconds(10)).until(() -> loki.totalEntries() == 1);
    assertThat(postProto(body).statusCode()).as("the client's retry").isEqualTo(204);
    assertThat(loki.duplicatesDropped()).isEqualTo(1);

    loki.faults().stall(Duration.ofMillis(50));
    assertThat(postProto(proto("{job=\"x\"}", entry(2, 0, "b"))).statusCode())
        .as("answered once its hold ends")
        .isEqualTo(204);
    assertThat(loki.faults().stalledRequests()).isEqualTo(2);
    assertThat(loki.totalEntries()).isEqualTo(2);
  }

  @Test
  @DisplayName("SINK-10: 413 above a body size; marker lines get a 400 and the rest is stored")
  void sizeAndMarker() throws Exception {
    loki.faults().maxBodyBytes(10);
    HttpResponse<String> big = postProto(proto("{job=\"x\"}", entry(1, 0, "a".repeat(40))));
    assertThat(big.statusCode()).isEqualTo(413);
    assertThat(big.body()).startsWith("request body too large: ");
    loki.faults().clear();

    loki.faults().rejectLinesContaining("POISON");
    HttpResponse<String> r =
        postProto(proto("{job=\"x\"}", entry(1, 0, "fine"), entry(2, 0, "has POISON")));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("{job=\"x\"}");
    assertThat(loki.entries(Map.of())).extracting(ReceivedEntry::line).containsExactly("fine");
  }

  @Test
  @DisplayName("SINK-12: structured metadata refusal and FEAT-18 out-of-order window")
  void metadataRefusalAndWindow() throws Exception {
    try (LokiReceiver strict =
        LokiReceiver.builder()
            .allowStructuredMetadata(false)
            .outOfOrderWindow(Duration.ofHours(1))
            .start()) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(strict.pushUrl()))
                  .POST(
                      HttpRequest.BodyPublishers.ofByteArray(
                          proto("{job=\"x\"}", entry(7200, 0, "a", "k", "v"))))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("structured metadata").contains("disallowed");
      HttpRequest ok =
          HttpRequest.newBuilder(URI.create(strict.pushUrl()))
              .POST(
                  HttpRequest.BodyPublishers.ofByteArray(
                      proto("{job=\"x\"}", entry(7200, 0, "a"), entry(3599, 0, "old"))))
              .build();
      HttpResponse<String> late = http.send(ok, HttpResponse.BodyHandlers.ofString());
      assertThat(late.statusCode()).isEqualTo(400);
      assertThat(late.body()).startsWith("entry too far behind, entry timestamp is: ");
      assertThat(strict.totalEntries()).isEqualTo(1);
    }
  }
}
