package io.sf2loki.loki.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import logproto.EntryAdapter;
import logproto.LabelPairAdapter;
import logproto.PushRequest;
import logproto.StreamAdapter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProtobufEncoderTest {
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");
  private final ProtobufEncoder encoder = new ProtobufEncoder(new SnappyCodec());

  @Test
  @DisplayName("SINK-4/SINK-6: uncompressed body equals the golden push_request_sf2loki.pb")
  void sink4GoldenBody() {
    byte[] body = encoder.serialize(Fixtures.pushRequestBatch(), true);
    assertThat(body).isEqualTo(Fixtures.resource("push_request_sf2loki.pb"));
  }

  @Test
  @DisplayName("SINK-4: encode() sends snappy block format that decompresses to the golden body")
  void sink4SnappyBody() throws Exception {
    EncodedRequest req = encoder.encode(Fixtures.pushRequestBatch(), true);
    assertThat(req.contentType()).isEqualTo("application/x-protobuf");
    assertThat(req.contentEncoding()).isEqualTo("snappy");
    assertThat(req.entryCount()).isEqualTo(2);
    assertThat(new SnappyCodec().uncompress(req.body()))
        .isEqualTo(Fixtures.resource("push_request_sf2loki.pb"));
    // reference decoder (snappy-java's own) and the Loki sample decode the same way
    assertThat(org.xerial.snappy.Snappy.uncompress(req.body()))
        .isEqualTo(Fixtures.resource("push_request_sf2loki.pb"));
  }

  @Test
  @DisplayName("SINK-4: push_request.pb.snappy decompresses to push_request.pb with our codec")
  void sink4SampleDecompresses() throws Exception {
    assertThat(new SnappyCodec().uncompress(Fixtures.resource("push_request.pb.snappy")))
        .isEqualTo(Fixtures.resource("push_request.pb"));
  }

  @Test
  @DisplayName("SINK-6: streams in first-seen order, entries in batch order, label escaping")
  void sink6Grouping() throws Exception {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("source", "x\"y\\z\nw");
    a.put("job", "j");
    Map<String, String> b = Map.of("job", "j");
    List<LogEntry> entries =
        List.of(
            entry(a, 1, "a1", Map.of()),
            entry(b, 2, "b1", Map.of()),
            entry(new TreeMap<>(a), 3, "a2", Map.of("z", "1", "a", "2")));
    PushRequest req = PushRequest.parseFrom(encoder.serialize(entries, true));
    assertThat(req.getStreamsList())
        .extracting(StreamAdapter::getLabels)
        .containsExactly("{job=\"j\",source=\"x\\\"y\\\\z\\nw\"}", "{job=\"j\"}");
    assertThat(req.getStreams(0).getEntriesList())
        .extracting(EntryAdapter::getLine)
        .containsExactly("a1", "a2");
    assertThat(req.getStreams(0).getEntries(1).getStructuredMetadataList())
        .extracting(LabelPairAdapter::getName)
        .containsExactly("a", "z");
  }

  @Test
  @DisplayName("SINK-12: withMetadata=false sends no metadata pairs")
  void sink12NoMetadata() throws Exception {
    PushRequest req = PushRequest.parseFrom(encoder.serialize(Fixtures.pushRequestBatch(), false));
    assertThat(req.getStreams(0).getEntries(0).getStructuredMetadataCount()).isZero();
  }

  @ParameterizedTest
  @ValueSource(longs = {1L, 2L, 3L, 42L, 4711L})
  @DisplayName("SINK-4/PIPE-26: bytes equal the generated logproto serialization (seeded random)")
  void sink4MatchesGeneratedCode(long seed) {
    Random rnd = new Random(seed);
    List<LogEntry> entries = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      Map<String, String> labels = Map.of("job", "j", "source", "s" + rnd.nextInt(4));
      Map<String, String> md = new TreeMap<>();
      for (int m = rnd.nextInt(4); m > 0; m--) {
        md.put("k" + rnd.nextInt(6), randomString(rnd));
      }
      long sec = rnd.nextInt(10) == 0 ? -rnd.nextInt(1000) : rnd.nextLong(0, 4_000_000_000L);
      int nanos = rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(1_000_000_000);
      entries.add(
          LogEntry.of(Instant.ofEpochSecond(sec, nanos), labels, randomString(rnd), md, TOKEN));
    }
    assertThat(encoder.serialize(entries, true)).isEqualTo(generated(entries, true));
    assertThat(encoder.serialize(entries, false)).isEqualTo(generated(entries, false));
    assertThat(encoder.serialize(entries, true)).isEqualTo(encoder.serialize(entries, true));
  }

  @Test
  @DisplayName(
      "SINK-6: metadata pairs go out in code-point key order whatever the map order; the order reused for a repeated key sequence never leaks to another")
  void sink6MetadataOrderAcrossKeySequences() {
    String a = "user_id";
    String b = "client_ip";
    String c = "level";
    String astral = "\uD83D\uDE00k"; // U+1F600: after U+FFFD in code-point order, before in UTF-16
    String high = "\uFFFDk";
    List<Map<String, String>> shapes = new ArrayList<>();
    shapes.add(linked(a, "1", b, "2", c, "info"));
    shapes.add(linked(a, "3", b, "4", c, "warn")); // same key instances and order
    shapes.add(linked(c, "x", b, "y", a, "z")); // same keys, other order
    shapes.add(linked(new String(a), "5", new String(b), "6", new String(c), "7")); // equal keys
    shapes.add(linked(astral, "s", high, "h"));
    shapes.add(linked(high, "h2", astral, "s2"));
    shapes.add(Map.of());
    shapes.add(linked(a, "", "", "v")); // empty value and empty name are omitted fields
    shapes.add(linked(a, "8", b, "9")); // a prefix of an earlier sequence
    shapes.add(linked(a, "10", b, "11", c, "debug"));
    List<LogEntry> entries = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      entries.add(entry(Map.of("job", "j"), 1 + i, "line " + i, shapes.get(i % shapes.size())));
    }
    assertThat(encoder.serialize(entries, true)).isEqualTo(generated(entries, true));
  }

  @Test
  @DisplayName(
      "SINK-4: reused per-thread buffers never leak bytes between batches of different sizes")
  void sink4ReusedBuffersAcrossBatchSizes() throws Exception {
    Random rnd = new Random(7);
    for (int size : new int[] {300, 5, 300, 1, 120}) {
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        entries.add(
            entry(Map.of("job", "j"), 1 + i, randomString(rnd), linked("k", randomString(rnd))));
      }
      EncodedRequest r = encoder.encode(entries, true);
      assertThat(new SnappyCodec().uncompress(r.body()))
          .isEqualTo(encoder.serialize(entries, true))
          .isEqualTo(generated(entries, true));
      assertThat(r.body()).isEqualTo(new SnappyCodec().compress(encoder.serialize(entries, true)));
    }
  }

  private static Map<String, String> linked(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void rejectsEmptyAndCheckpointOnly() {
    assertThatThrownBy(() -> encoder.encode(List.of(), true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> encoder.encode(List.of(LogEntry.checkpointOnly(TOKEN)), true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static byte[] generated(List<LogEntry> entries, boolean withMetadata) {
    Map<Map<String, String>, StreamAdapter.Builder> streams = new LinkedHashMap<>();
    for (LogEntry e : entries) {
      StreamAdapter.Builder s =
          streams.computeIfAbsent(
              e.labels(), l -> StreamAdapter.newBuilder().setLabels(Streams.labelString(l)));
      EntryAdapter.Builder eb =
          EntryAdapter.newBuilder()
              .setTimestamp(
                  Timestamp.newBuilder()
                      .setSeconds(e.timestamp().getEpochSecond())
                      .setNanos(e.timestamp().getNano()))
              .setLine(e.line());
      if (withMetadata) {
        TreeMap<String, String> sorted = new TreeMap<>(Streams.CODE_POINT_ORDER);
        sorted.putAll(e.structuredMetadata());
        sorted.forEach(
            (k, v) ->
                eb.addStructuredMetadata(LabelPairAdapter.newBuilder().setName(k).setValue(v)));
      }
      s.addEntries(eb);
    }
    PushRequest.Builder req = PushRequest.newBuilder();
    streams.values().forEach(req::addStreams);
    return req.build().toByteArray();
  }

  private static String randomString(Random rnd) {
    int n = rnd.nextInt(6) == 0 ? 0 : rnd.nextInt(300);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      switch (rnd.nextInt(4)) {
        case 0 -> sb.append((char) ('a' + rnd.nextInt(26)));
        case 1 -> sb.append('é');
        case 2 -> sb.appendCodePoint(0x1F600 + rnd.nextInt(50));
        default -> sb.append((char) (0x20 + rnd.nextInt(90)));
      }
    }
    return sb.toString();
  }

  private static LogEntry entry(
      Map<String, String> labels, long sec, String line, Map<String, String> md) {
    return LogEntry.of(Instant.ofEpochSecond(sec), labels, line, md, TOKEN);
  }
}
