package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.shape.CanonicalJson;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AvroEventDecoderTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DIR = "/fixtures/avro/";

  private final AvroEventDecoder decoder = new AvroEventDecoder();

  static JsonNode resource(String path) throws IOException {
    try (InputStream in = AvroEventDecoderTest.class.getResourceAsStream(DIR + path)) {
      assertThat(in).as(path).isNotNull();
      return JSON.readTree(in);
    }
  }

  static Schema schema(String file) throws IOException {
    try (InputStream in = AvroEventDecoderTest.class.getResourceAsStream(DIR + file)) {
      assertThat(in).as(file).isNotNull();
      return new Schema.Parser().parse(in);
    }
  }

  static Stream<JsonNode> syntheticEvents() throws IOException {
    List<JsonNode> events = new ArrayList<>();
    resource("rtem_synthetic_events.json").get("events").forEach(events::add);
    return events.stream();
  }

  @ParameterizedTest(name = "{index}")
  @MethodSource("syntheticEvents")
  @DisplayName("PS-4/PS-5: every synthetic RTEM event decodes with its schema to its source values")
  void syntheticRtemEventsDecodeToTheirSourceValues(JsonNode event) throws Exception {
    Schema schema = schema(event.get("schema_file").asText());
    byte[] payload = Base64.getDecoder().decode(event.get("avro_base64").asText());
    assertThat(payload).hasSize(event.get("avro_bytes").asInt());

    Map<String, Object> decoded = decoder.decode(schema, payload);

    assertThat(decoded.keySet())
        .containsExactlyElementsOf(schema.getFields().stream().map(Schema.Field::name).toList());
    assertMatchesNonNull(event.get("json"), decoded, "$");
    // the line is the canonical JSON of the decoded map: same as the source JSON plus nulls
    assertThat(CanonicalJson.write(decoded))
        .contains("\"CreatedDate\": " + event.get("json").get("CreatedDate").asLong());
  }

  @Test
  @DisplayName("PS-5/SRC-7: a decoded Login event renders as the canonical JSON line")
  void loginEventRendersAsCanonicalLine() throws Exception {
    JsonNode login = syntheticEvents().findFirst().orElseThrow();
    Map<String, Object> decoded =
        decoder.decode(
            schema(login.get("schema_file").asText()),
            Base64.getDecoder().decode(login.get("avro_base64").asText()));

    String line = CanonicalJson.write(decoded);

    assertThat(line)
        .startsWith("{\"AdditionalInfo\": \"{}\", \"ApiType\": \"N/A\", \"ApiVersion\": \"N/A\", ")
        .contains("\"EvaluationTime\": 0.0")
        .contains("\"LoginLatitude\": 52.52, \"LoginLongitude\": 13.405")
        .contains("\"EventDate\": 1717564999123")
        .endsWith("}");
    assertThat(decoded.get("EventDate")).isInstanceOf(Long.class);
    assertThat(decoded.get("LoginLatitude")).isInstanceOf(Double.class);
  }

  static Stream<JsonNode> cdcEvents() throws IOException {
    List<JsonNode> events = new ArrayList<>();
    resource("cdc/AccountChangeEvent_expected_decoded.json").get("events").forEach(events::add);
    return events.stream();
  }

  @ParameterizedTest(name = "{index}")
  @MethodSource("cdcEvents")
  @DisplayName("PS-4/PS-5: captured CDC payloads decode with the schema of their schema id")
  void cdcCapturesDecodeToTheExpectedValues(JsonNode expected) throws Exception {
    JsonNode consumerEvent = findConsumerEvent(expected);
    String schemaId = consumerEvent.get("event").get("schemaId").asText();
    assertThat(schemaId).isEqualTo(expected.get("schemaId").asText());
    byte[] payload = Base64.getDecoder().decode(consumerEvent.get("event").get("payload").asText());
    assertThat(payload).hasSize(expected.get("payload_bytes").asInt());

    Map<String, Object> decoded =
        decoder.decode(schema("cdc/AccountChangeEvent." + schemaId + ".avsc"), payload);

    @SuppressWarnings("unchecked")
    Map<String, Object> header = (Map<String, Object>) decoded.get("ChangeEventHeader");
    // bitmap fields stay raw strings (PS-5); every header field matches exactly
    JsonNode expectedHeader = expected.get("ChangeEventHeader");
    expectedHeader
        .fieldNames()
        .forEachRemaining(
            name ->
                assertThat(normalize(header.get(name)))
                    .as(name)
                    .isEqualTo(
                        normalize(JSON.convertValue(expectedHeader.get(name), Object.class))));
    assertThat(header.get("changeType")).isInstanceOf(String.class);
    assertThat(header.get("commitTimestamp")).isInstanceOf(Long.class);
    // the body: listed fields non-null with these values, every other body field null
    Map<String, Object> body = new java.util.LinkedHashMap<>(decoded);
    body.remove("ChangeEventHeader");
    assertMatchesNonNull(expected.get("non_null_body_fields"), body, "$");
  }

  private static JsonNode findConsumerEvent(JsonNode expected) throws IOException {
    JsonNode source = resource("cdc/" + expected.get("source_file").asText());
    JsonNode events = source.isArray() ? source : source.get("events");
    for (JsonNode e : events) {
      if (e.get("event").get("id").asText().equals(expected.get("event_id").asText())) {
        assertThat(e.get("replayId").asText()).isEqualTo(expected.get("replayId_base64").asText());
        return e;
      }
    }
    throw new AssertionError("event " + expected.get("event_id") + " not in source file");
  }

  @Test
  @DisplayName(
      "PS-6: a payload with trailing bytes raises AvroDecodeException, never a partial map")
  void trailingGarbageIsADecodeError() throws Exception {
    JsonNode login = syntheticEvents().findFirst().orElseThrow();
    byte[] payload = Base64.getDecoder().decode(login.get("avro_base64").asText());
    byte[] longer = Arrays.copyOf(payload, payload.length + 3);

    assertThatThrownBy(() -> decoder.decode(schema(login.get("schema_file").asText()), longer))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("trailing");
  }

  @Test
  @DisplayName("PS-6: every truncation of a payload raises AvroDecodeException")
  void truncatedPayloadIsADecodeError() throws Exception {
    JsonNode login = syntheticEvents().findFirst().orElseThrow();
    Schema schema = schema(login.get("schema_file").asText());
    byte[] payload = Base64.getDecoder().decode(login.get("avro_base64").asText());

    for (int length = 0; length < payload.length; length++) {
      byte[] truncated = Arrays.copyOf(payload, length);
      assertThatThrownBy(() -> decoder.decode(schema, truncated))
          .as("length %d", length)
          .isInstanceOf(AvroDecodeException.class);
    }
  }

  @Test
  @DisplayName(
      "PS-6: a zero-length decimal (bytes or nullable) raises AvroDecodeException, not"
          + " NumberFormatException (fuzz find)")
  void zeroLengthDecimalIsADecodeError() throws Exception {
    Schema schema =
        new Schema.Parser()
            .parse(
                """
                {"type":"record","name":"D","fields":[{"name":"dec","type":["null",
                 {"type":"bytes","logicalType":"decimal","precision":6,"scale":2}]}]}""");
    // union branch 1 (zig-zag 0x02), bytes of length 0
    assertThatThrownBy(() -> decoder.decode(schema, new byte[] {0x02, 0x00}))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("D")
        .hasMessageContaining("NumberFormatException");
  }

  @Test
  @DisplayName("PS-6: a malformed payload (bad union index) raises AvroDecodeException")
  void malformedPayloadIsADecodeError() throws Exception {
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"E\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",\"string\"]}]}");
    assertThatThrownBy(() -> decoder.decode(schema, new byte[] {0x7e}))
        .isInstanceOf(AvroDecodeException.class);
  }

  @Test
  @DisplayName("PS-5: enums, maps, floats, bytes, fixed and logical types map as specified")
  void typeMapping() throws Exception {
    Schema schema =
        new Schema.Parser()
            .parse(
                """
                {"type":"record","name":"T","fields":[
                 {"name":"e","type":{"type":"enum","name":"Kind","symbols":["CREATE","UPDATE"]}},
                 {"name":"m","type":{"type":"map","values":"int"}},
                 {"name":"f","type":"float"},
                 {"name":"i","type":"int"},
                 {"name":"b","type":"boolean"},
                 {"name":"raw","type":"bytes"},
                 {"name":"fx","type":{"type":"fixed","name":"F2","size":2}},
                 {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
                 {"name":"d","type":{"type":"int","logicalType":"date"}},
                 {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":6,"scale":2}},
                 {"name":"u","type":["null",{"type":"record","name":"Inner","fields":[{"name":"x","type":"string"}]}]}
                ]}""");
    GenericRecord record = new GenericData.Record(schema);
    record.put("e", new GenericData.EnumSymbol(schema.getField("e").schema(), "UPDATE"));
    record.put("m", Map.of("k", 7));
    record.put("f", 1.5f);
    record.put("i", 42);
    record.put("b", true);
    record.put("raw", ByteBuffer.wrap(new byte[] {'a', 0}));
    record.put("fx", new GenericData.Fixed(schema.getField("fx").schema(), new byte[] {1, 2}));
    record.put("ts", 1717564999123L);
    record.put("d", 19879);
    Schema decSchema = schema.getField("dec").schema();
    record.put(
        "dec",
        new Conversions.DecimalConversion()
            .toBytes(new BigDecimal("12.50"), decSchema, LogicalTypes.decimal(6, 2)));
    GenericRecord inner = new GenericData.Record(schema.getField("u").schema().getTypes().get(1));
    inner.put("x", "y");
    record.put("u", inner);

    Map<String, Object> decoded = decoder.decode(schema, encode(schema, record));

    assertThat(decoded.get("e")).isEqualTo("UPDATE");
    assertThat(decoded.get("m")).isEqualTo(Map.of("k", 7L));
    assertThat(decoded.get("f")).isEqualTo(1.5d);
    assertThat(decoded.get("i")).isEqualTo(42L);
    assertThat(decoded.get("b")).isEqualTo(true);
    assertThat((byte[]) decoded.get("raw")).containsExactly('a', 0);
    assertThat((byte[]) decoded.get("fx")).containsExactly(1, 2);
    assertThat(decoded.get("ts")).isEqualTo(Instant.ofEpochMilli(1717564999123L));
    assertThat(decoded.get("d")).isEqualTo("2024-06-05");
    assertThat(decoded.get("dec")).isEqualTo(new BigDecimal("12.50"));
    assertThat(decoded.get("u")).isEqualTo(Map.of("x", "y"));
    assertThat(CanonicalJson.write(decoded))
        .contains("\"raw\": \"b'a\\\\x00'\"")
        .contains("\"dec\": \"12.50\"");
  }

  private static byte[] encode(Schema schema, GenericRecord record) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  /** Expected keys match exactly (numbers by value); any other key of {@code actual} is null. */
  private static void assertMatchesNonNull(
      JsonNode expected, Map<String, Object> actual, String path) {
    expected.fieldNames().forEachRemaining(name -> assertThat(actual).as(path).containsKey(name));
    for (Map.Entry<String, Object> e : actual.entrySet()) {
      JsonNode want = expected.get(e.getKey());
      String at = path + "." + e.getKey();
      if (want == null || want.isNull()) {
        assertThat(e.getValue()).as(at).isNull();
      } else if (want.isObject()) {
        assertThat(e.getValue()).as(at).isInstanceOf(Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> nested = (Map<String, Object>) e.getValue();
        assertMatchesNonNull(want, nested, at);
      } else {
        assertThat(normalize(e.getValue()))
            .as(at)
            .isEqualTo(normalize(JSON.convertValue(want, Object.class)));
      }
    }
  }

  /** Integers as Long, floating point as Double, lists element-wise. */
  private static Object normalize(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float || value instanceof Double) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof List<?> l) {
      return l.stream().map(AvroEventDecoderTest::normalize).toList();
    }
    return value;
  }
}
