package io.sf2loki.sim.pubsub;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Schemaless Avro binary (no container header, no fingerprint) to and from plain Java values:
 * records ↔ {@code Map<String,Object>} (missing fields = null), arrays ↔ lists, maps ↔ maps, enums
 * and strings ↔ {@link String}, numbers and booleans boxed, bytes ↔ {@code byte[]}.
 */
final class AvroCodec {
  private AvroCodec() {}

  /** Encodes {@code record} (a map by field name) with {@code schema}. */
  static byte[] encode(Schema schema, Map<String, Object> record) {
    Object datum = toAvro(schema, record);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    try {
      new GenericDatumWriter<Object>(schema).write(datum, enc);
      enc.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Decodes {@code payload} with writer schema {@code schema}.
   *
   * @throws IOException when the payload is truncated or malformed, or has leftover bytes
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> decode(Schema schema, byte[] payload) throws IOException {
    BinaryDecoder dec = DecoderFactory.get().binaryDecoder(payload, null);
    Object datum;
    try {
      datum = new GenericDatumReader<Object>(schema).read(null, dec);
    } catch (RuntimeException e) {
      throw new IOException("undecodable payload: " + e.getClass().getSimpleName(), e);
    }
    if (!dec.isEnd()) {
      throw new IOException("leftover bytes after the record");
    }
    return (Map<String, Object>) toJava(datum);
  }

  @SuppressWarnings("unchecked")
  private static Object toAvro(Schema s, Object v) {
    switch (s.getType()) {
      case UNION -> {
        return toAvro(pickBranch(s, v), v);
      }
      case RECORD -> {
        Map<String, Object> m = (Map<String, Object>) v;
        GenericData.Record r = new GenericData.Record(s);
        for (Schema.Field f : s.getFields()) {
          r.put(f.pos(), toAvro(f.schema(), m.get(f.name())));
        }
        return r;
      }
      case ARRAY -> {
        List<Object> out = new ArrayList<>();
        for (Object o : (List<Object>) v) {
          out.add(toAvro(s.getElementType(), o));
        }
        return new GenericData.Array<>(s, out);
      }
      case MAP -> {
        Map<String, Object> out = new LinkedHashMap<>();
        ((Map<String, Object>) v).forEach((k, o) -> out.put(k, toAvro(s.getValueType(), o)));
        return out;
      }
      case ENUM -> {
        return new GenericData.EnumSymbol(s, v.toString());
      }
      case BYTES -> {
        return ByteBuffer.wrap((byte[]) v);
      }
      case FIXED -> {
        return new GenericData.Fixed(s, (byte[]) v);
      }
      default -> {
        return v;
      }
    }
  }

  private static Schema pickBranch(Schema union, Object v) {
    for (Schema b : union.getTypes()) {
      boolean match =
          switch (b.getType()) {
            case NULL -> v == null;
            case STRING -> v instanceof String;
            case ENUM -> v instanceof String s && b.getEnumSymbols().contains(s);
            case LONG -> v instanceof Long;
            case INT -> v instanceof Integer;
            case DOUBLE -> v instanceof Double;
            case FLOAT -> v instanceof Float;
            case BOOLEAN -> v instanceof Boolean;
            case RECORD -> v instanceof Map;
            case MAP -> v instanceof Map;
            case ARRAY -> v instanceof List;
            case BYTES, FIXED -> v instanceof byte[];
            default -> false;
          };
      if (match) {
        return b;
      }
    }
    throw new IllegalArgumentException(
        "no union branch of " + union + " for " + (v == null ? "null" : v.getClass()));
  }

  private static Object toJava(Object v) {
    if (v instanceof GenericRecord r) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (Schema.Field f : r.getSchema().getFields()) {
        m.put(f.name(), toJava(r.get(f.pos())));
      }
      return m;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(o -> out.add(toJava(o)));
      return out;
    }
    if (v instanceof Map<?, ?> mp) {
      Map<String, Object> out = new LinkedHashMap<>();
      mp.forEach((k, o) -> out.put(k.toString(), toJava(o)));
      return out;
    }
    if (v instanceof CharSequence || v instanceof GenericData.EnumSymbol) {
      return v.toString();
    }
    if (v instanceof ByteBuffer bb) {
      byte[] b = new byte[bb.remaining()];
      bb.duplicate().get(b);
      return b;
    }
    if (v instanceof GenericData.Fixed f) {
      return f.bytes().clone();
    }
    return v;
  }
}
