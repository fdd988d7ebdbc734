package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.DisplayName;

/**
 * Fuzz target: the Pub/Sub Avro event decoder on hostile payloads (truncated, trailing bytes,
 * malformed lengths and union indexes, a payload decoded with another event's schema). Contract
 * (PS-4, PS-6): every payload yields a record map in schema field order or an {@link
 * AvroDecodeException}; nothing else is thrown. Input layout: byte 0 picks the writer schema
 * ({@link #SCHEMAS}: the reconstructed RTEM schemas, two captured CDC schemas and one schema with
 * every Avro type and logical type, modulo their count), the rest is the payload. Committed inputs
 * replay in the default build (AvroEventDecoderFuzzTestInputs/); {@code -Pfuzz} fuzzes.
 */
class AvroEventDecoderFuzzTest {
  private static final String DIR = "/fixtures/avro/";
  private static final String ALL_TYPES =
      """
      {"type":"record","name":"AllTypes","fields":[
       {"name":"e","type":{"type":"enum","name":"Kind","symbols":["CREATE","UPDATE"]}},
       {"name":"m","type":{"type":"map","values":["null","string"]}},
       {"name":"a","type":{"type":"array","items":"long"}},
       {"name":"f","type":"float"},
       {"name":"dbl","type":"double"},
       {"name":"i","type":"int"},
       {"name":"b","type":"boolean"},
       {"name":"raw","type":"bytes"},
       {"name":"fx","type":{"type":"fixed","name":"F2","size":2}},
       {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
       {"name":"tsu","type":{"type":"long","logicalType":"timestamp-micros"}},
       {"name":"d","type":{"type":"int","logicalType":"date"}},
       {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":6,"scale":2}},
       {"name":"decf","type":{"type":"fixed","name":"F4","size":4,"logicalType":"decimal","precision":9,"scale":3}},
       {"name":"id","type":{"type":"string","logicalType":"uuid"}},
       {"name":"u","type":["null","long","string",{"type":"record","name":"Inner","fields":[{"name":"x","type":"string"}]}]}
      ]}""";
  static final List<Schema> SCHEMAS = schemas();

  private final AvroEventDecoder decoder = new AvroEventDecoder();

  @DisplayName("PS-4/PS-6: a hostile payload decodes to a record or AvroDecodeException")
  @FuzzTest(maxDuration = "30s")
  void ps4_fuzzPayload(byte[] input) {
    if (input.length == 0) {
      return;
    }
    Schema schema = SCHEMAS.get(Byte.toUnsignedInt(input[0]) % SCHEMAS.size());
    byte[] payload = Arrays.copyOfRange(input, 1, input.length);
    try {
      Map<String, Object> record = decoder.decode(schema, payload);
      assertThat(record.keySet())
          .containsExactlyElementsOf(schema.getFields().stream().map(Schema.Field::name).toList());
    } catch (AvroDecodeException expected) {
      assertThat(expected.getMessage()).contains(schema.getFullName());
    }
  }

  private static List<Schema> schemas() {
    List<String> files =
        List.of(
            "ApiAnomalyEvent",
            "ApiEventStream",
            "CredentialStuffingEvent",
            "LightningUriEventStream",
            "ListViewEventStream",
            "LoginEventStream",
            "LogoutEventStream",
            "ReportAnomalyEvent",
            "ReportEventStream",
            "SessionHijackingEvent",
            "UriEventStream");
    List<Schema> out = new ArrayList<>();
    for (String f : files) {
      out.add(parse(f + ".reconstructed.avsc"));
    }
    out.add(parse("cdc/AccountChangeEvent.4egfTTaxua4Y39nYlBXfNg.avsc"));
    out.add(parse("cdc/AccountChangeEvent.i8wgJwwM-AVcDbFkbRl5Nw.avsc"));
    out.add(new Schema.Parser().parse(ALL_TYPES));
    return List.copyOf(out);
  }

  private static Schema parse(String file) {
    try (InputStream in = AvroEventDecoderFuzzTest.class.getResourceAsStream(DIR + file)) {
      if (in == null) {
        throw new IllegalStateException("no schema fixture " + file);
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
