package io.sf2loki.loki.encode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.loki.Compression;
import io.sf2loki.loki.Encoding;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JsonEncoderTest {
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");

  @Test
  @DisplayName("SINK-5: exact nanosecond string, metadata object always present")
  void sink5ExactNanos() {
    LogEntry e =
        LogEntry.of(
            Instant.parse("2024-06-05T05:41:17.937Z"),
            Map.of("job", "sf2loki", "a", "b"),
            "line \"q\"",
            Map.of(),
            TOKEN);
    EncodedRequest req = new JsonEncoder(false).encode(List.of(e), true);
    assertThat(req.contentType()).isEqualTo("application/json");
    assertThat(req.contentEncoding()).isNull();
    assertThat(new String(req.body(), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"streams\":[{\"stream\":{\"a\":\"b\",\"job\":\"sf2loki\"},\"values\":"
                + "[[\"1717566077937000000\",\"line \\\"q\\\"\",{}]]}]}");
  }

  @Test
  @DisplayName("SINK-5: nanos exact for sub-millisecond, pre-epoch and far-future instants")
  void sink5NanosEdgeCases() {
    assertThat(JsonEncoder.unixNanos(Instant.ofEpochSecond(1700628376, 2_000_001)))
        .isEqualTo("1700628376002000001");
    assertThat(JsonEncoder.unixNanos(Instant.ofEpochSecond(-1, 1))).isEqualTo("-999999999");
    assertThat(JsonEncoder.unixNanos(Instant.ofEpochSecond(10_000_000_000L, 5)))
        .isEqualTo("10000000000000000005");
  }

  @Test
  @DisplayName("SINK-5/CFG-23: gzip when compression=gzip; snappy means uncompressed JSON")
  void sink5GzipAndStreams() throws Exception {
    LokiEncoder gz = LokiEncoder.of(Encoding.JSON, Compression.GZIP);
    EncodedRequest req = gz.encode(Fixtures.pushRequestBatch(), true);
    assertThat(req.contentEncoding()).isEqualTo("gzip");
    byte[] plain = new GZIPInputStream(new ByteArrayInputStream(req.body())).readAllBytes();
    JsonNode root = new ObjectMapper().readTree(plain);
    JsonNode stream = root.get("streams").get(0);
    assertThat(stream.get("stream").get("event_type").asText()).isEqualTo("Login");
    assertThat(stream.get("values")).hasSize(2);
    assertThat(stream.get("values").get(0).get(0).asText()).isEqualTo("1700628375591000000");
    assertThat(stream.get("values").get(0).get(2).get("sf_row").asText()).isEqualTo("1");
    assertThat(stream.get("values").get(1).get(2).isObject()).isTrue();
    assertThat(stream.get("values").get(1).get(2).size()).isZero();

    EncodedRequest snappy =
        LokiEncoder.of(Encoding.JSON, Compression.SNAPPY)
            .encode(Fixtures.pushRequestBatch(), false);
    assertThat(snappy.contentEncoding()).isNull();
    JsonNode r2 = new ObjectMapper().readTree(snappy.body());
    assertThat(r2.get("streams").get(0).get("values").get(0).get(2).size()).isZero();
    assertThat(
            LokiEncoder.of(Encoding.JSON, Compression.NONE)
                .encode(Fixtures.pushRequestBatch(), true)
                .body())
        .isEqualTo(
            LokiEncoder.of(Encoding.JSON, Compression.SNAPPY)
                .encode(Fixtures.pushRequestBatch(), true)
                .body());
  }

  @Test
  @DisplayName("SINK-6: streams grouped in first-seen order in JSON too")
  void sink6JsonGrouping() throws Exception {
    List<LogEntry> entries =
        List.of(
            LogEntry.of(Instant.ofEpochSecond(1), Map.of("s", "b"), "1", Map.of(), TOKEN),
            LogEntry.of(Instant.ofEpochSecond(2), Map.of("s", "a"), "2", Map.of(), TOKEN),
            LogEntry.of(Instant.ofEpochSecond(3), Map.of("s", "b"), "3", Map.of(), TOKEN));
    JsonNode root =
        new ObjectMapper().readTree(new JsonEncoder(false).encode(entries, true).body());
    assertThat(root.get("streams")).hasSize(2);
    assertThat(root.get("streams").get(0).get("values")).hasSize(2);
    assertThat(root.get("streams").get(0).get("values").get(1).get(1).asText()).isEqualTo("3");
  }

  @Test
  @DisplayName("SINK-5: unpaired surrogates are sent as '?' (as protobuf's UTF-8 encoding does)")
  void sink5LoneSurrogate() throws Exception {
    LogEntry e =
        LogEntry.of(
            Instant.ofEpochSecond(1),
            Map.of("s", "a\uD800b"),
            "x\uDC00y\uD83D\uDE00",
            Map.of("m", "\uD800"),
            TOKEN);
    JsonNode root =
        new ObjectMapper().readTree(new JsonEncoder(false).encode(List.of(e), true).body());
    JsonNode s = root.get("streams").get(0);
    assertThat(s.get("stream").get("s").asText()).isEqualTo("a?b");
    assertThat(s.get("values").get(0).get(1).asText()).isEqualTo("x?y\uD83D\uDE00");
    assertThat(s.get("values").get(0).get(2).get("m").asText()).isEqualTo("?");
  }
}
