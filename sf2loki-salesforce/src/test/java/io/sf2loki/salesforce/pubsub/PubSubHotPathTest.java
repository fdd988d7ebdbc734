package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.core.shape.CanonicalJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The hot-path caches of the Pub/Sub decode and shape path give the same results as the uncached
 * code: {@link AvroEventDecoder}'s per-schema reader cache and decoder reuse, its {@code ["null",
 * T]} union shortcut, and {@link RecordLineWriter} against {@link CanonicalJson#write}.
 */
class PubSubHotPathTest {

  private record Sample(Schema schema, byte[] payload) {}

  /** Every synthetic RTEM event plus the captured CDC payloads, in file order (schemas mixed). */
  private static List<Sample> samples() throws IOException {
    List<Sample> out = new ArrayList<>();
    Map<String, Schema> schemas = new LinkedHashMap<>();
    for (JsonNode e : AvroEventDecoderTest.resource("rtem_synthetic_events.json").get("events")) {
      String file = e.get("schema_file").asText();
      Schema s = schemas.get(file);
      if (s == null) {
        s = AvroEventDecoderTest.schema(file);
        schemas.put(file, s);
      }
      out.add(new Sample(s, Base64.getDecoder().decode(e.get("avro_base64").asText())));
    }
    JsonNode expected =
        AvroEventDecoderTest.resource("cdc/AccountChangeEvent_expected_decoded.json");
    for (JsonNode x : expected.get("events")) {
      JsonNode source = AvroEventDecoderTest.resource("cdc/" + x.get("source_file").asText());
      JsonNode events = source.isArray() ? source : source.get("events");
      for (JsonNode ce : events) {
        if (ce.get("event").get("id").asText().equals(x.get("event_id").asText())) {
          String id = ce.get("event").get("schemaId").asText();
          Schema s =
              schemas.computeIfAbsent(
                  id,
                  k -> {
                    try {
                      return AvroEventDecoderTest.schema("cdc/AccountChangeEvent." + k + ".avsc");
                    } catch (IOException ex) {
                      throw new IllegalStateException(ex);
                    }
                  });
          out.add(
              new Sample(s, Base64.getDecoder().decode(ce.get("event").get("payload").asText())));
        }
      }
    }
    assertThat(schemas.size()).isGreaterThan(2);
    return out;
  }

  @Test
  @DisplayName(
      "PS-5/SRC-7: one reused decoder + line writer give the same maps and lines as fresh ones,"
          + " across interleaved schemas and after a decode failure")
  void reusedDecoderAndLineWriterMatchFreshOnes() throws Exception {
    List<Sample> samples = samples();
    AvroEventDecoder reused = new AvroEventDecoder();
    RecordLineWriter writer = new RecordLineWriter();
    List<String> schemaTexts = samples.stream().map(x -> x.schema().toString()).toList();
    List<Map<String, Object>> expected = new ArrayList<>();
    for (Sample s : samples) {
      expected.add(new AvroEventDecoder().decode(s.schema(), s.payload()));
    }
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < samples.size(); i++) {
        Sample s = samples.get(i);
        Map<String, Object> fresh = expected.get(i);
        Map<String, Object> again = reused.decode(s.schema(), s.payload());
        assertThat(again).isEqualTo(fresh);
        assertThat(List.copyOf(again.keySet())).isEqualTo(List.copyOf(fresh.keySet()));
        assertThat(writer.write(again)).isEqualTo(CanonicalJson.write(fresh));
        // a malformed payload in between leaves the cached reader and decoder usable
        byte[] cut = java.util.Arrays.copyOf(s.payload(), s.payload().length / 3);
        assertThatThrownBy(() -> reused.decode(s.schema(), cut))
            .isInstanceOf(AvroDecodeException.class);
      }
    }
    // the shared (SchemaCache) schema objects are never modified by the decoder
    assertThat(samples.stream().map(x -> x.schema().toString()).toList()).isEqualTo(schemaTexts);
  }

  @Test
  @DisplayName("SRC-7: the line writer sorts by code point, escapes keys and follows key changes")
  void lineWriterMatchesCanonicalJsonOnEdgeCases() {
    RecordLineWriter writer = new RecordLineWriter();
    List<Map<String, Object>> maps = new ArrayList<>();
    maps.add(new LinkedHashMap<>());
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("b", 1L);
    a.put("a\"q", "x\ny");
    a.put("\uD83D\uDE00", true); // surrogate pair: after every BMP character
    a.put("\uFF5E", null);
    a.put("é", 1.5);
    a.put("nested", new LinkedHashMap<>(Map.of("z", 1L, "y", List.of(2L, "s"))));
    maps.add(a);
    Map<String, Object> sameSizeOtherKeys = new LinkedHashMap<>();
    for (String k : List.of("q", "p", "o", "n", "m", "l")) {
      sameSizeOtherKeys.put(k, k);
    }
    maps.add(sameSizeOtherKeys);
    Map<String, Object> sameKeysOtherOrder = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>(a.keySet());
    java.util.Collections.reverse(keys);
    keys.forEach(k -> sameKeysOtherOrder.put(new String(k), a.get(k)));
    maps.add(sameKeysOtherOrder);
    maps.add(a);
    for (int pass = 0; pass < 2; pass++) {
      for (Map<String, Object> m : maps) {
        assertThat(writer.write(m)).isEqualTo(CanonicalJson.write(m));
      }
    }
  }

  @Test
  @DisplayName("PS-5: [T, null] and three-branch unions decode to the selected branch")
  void unionBranches() throws Exception {
    Schema schema =
        new Schema.Parser()
            .parse(
                """
                {"type":"record","name":"U","fields":[
                  {"name":"a","type":["string","null"]},
                  {"name":"b","type":["null","long","string"]},
                  {"name":"c","type":["null",{"type":"long","logicalType":"timestamp-millis"}]},
                  {"name":"d","type":["null","string"],"default":null}]}
                """);
    GenericRecord r = new GenericData.Record(schema);
    r.put("a", "x");
    r.put("b", "seven");
    r.put("c", 1717564999123L);
    r.put("d", null);
    Map<String, Object> m = new AvroEventDecoder().decode(schema, encode(schema, r));
    assertThat(m)
        .containsEntry("a", "x")
        .containsEntry("b", "seven")
        .containsEntry("c", java.time.Instant.ofEpochMilli(1717564999123L))
        .containsEntry("d", null);
    r.put("b", 7L);
    assertThat(new AvroEventDecoder().decode(schema, encode(schema, r))).containsEntry("b", 7L);
  }

  private static byte[] encode(Schema schema, GenericRecord r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(r, enc);
    enc.flush();
    return out.toByteArray();
  }
}
