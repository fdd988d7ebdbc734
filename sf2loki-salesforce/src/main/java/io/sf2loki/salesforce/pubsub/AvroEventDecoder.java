package io.sf2loki.salesforce.pubsub;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Decodes a Pub/Sub {@code ProducerEvent.payload} (schemaless Avro binary: no container header, no
 * fingerprint prefix) with its writer schema into plain Java values (SPEC PS-4, PS-5), ready for
 * {@code CanonicalJson.write} (SRC-7).
 *
 * <p>Mapping (PS-5): records → {@code LinkedHashMap<String,Object>} in schema field order (SRC-7
 * sorts when rendering); arrays → {@code List}; maps → {@code LinkedHashMap<String,Object>}; enums
 * → their symbol {@code String}; strings → {@code String}; {@code int}/{@code long} → {@code Long};
 * {@code float}/{@code double} → {@code Double}; {@code boolean} → {@code Boolean}; {@code
 * bytes}/{@code fixed} → {@code byte[]} (rendered by SRC-8); unions → the selected branch; null →
 * null. Logical types: {@code timestamp-millis}/{@code -micros} → {@link Instant}; {@code date} →
 * {@code "YYYY-MM-DD"}; {@code decimal} → {@link BigDecimal}; {@code uuid} → {@code String}. CDC
 * bitmap fields stay raw strings (PS-5).
 *
 * <p>Not thread-safe: an instance caches one Avro datum reader per writer schema instance (at most
 * {@value #MAX_CACHED_READERS}; the schema objects come from the process-lifetime {@link
 * SchemaCache}, so they are stable) and reuses one binary decoder; use one instance per thread
 * (each {@link TopicReader} owns one).
 */
public final class AvroEventDecoder {
  /** Bound of the per-instance datum reader cache (an org has few schema ids). */
  static final int MAX_CACHED_READERS = 64;

  private final Map<Schema, GenericDatumReader<Object>> readers = new IdentityHashMap<>();
  private BinaryDecoder reusable;

  /**
   * Decodes one payload.
   *
   * @param writerSchema the record schema the payload was written with ({@code
   *     GetSchema(schema_id)})
   * @param payload the raw Avro binary bytes
   * @return the decoded record as an ordered, mutable map in schema field order
   * @throws AvroDecodeException when the bytes are truncated or malformed, bytes remain after the
   *     record, or a value has no Java value (a zero-length {@code decimal})
   */
  public Map<String, Object> decode(Schema writerSchema, byte[] payload)
      throws AvroDecodeException {
    if (writerSchema.getType() != Schema.Type.RECORD) {
      throw new AvroDecodeException(
          "writer schema " + writerSchema.getFullName() + " is not a record", null);
    }
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(payload, reusable);
    reusable = decoder;
    Object datum;
    try {
      datum = reader(writerSchema).read(null, decoder);
    } catch (IOException | RuntimeException e) {
      // truncated input is an EOFException; malformed input (negative lengths, a bad union index,
      // an invalid enum ordinal) surfaces as various runtime exceptions: all are decode failures.
      throw new AvroDecodeException(
          "cannot decode Avro payload of "
              + payload.length
              + " bytes with schema "
              + writerSchema.getFullName()
              + ": "
              + e.getClass().getSimpleName(),
          e);
    }
    try {
      if (!decoder.isEnd()) {
        throw new AvroDecodeException(
            "Avro payload of "
                + payload.length
                + " bytes has trailing bytes after the "
                + writerSchema.getFullName()
                + " record",
            null);
      }
    } catch (IOException e) {
      throw new AvroDecodeException("cannot check the end of the Avro payload", e);
    }
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) convert(writerSchema, datum);
      return map;
    } catch (RuntimeException e) {
      // a value Avro read but no Java value exists for, e.g. a zero-length decimal (fuzz find)
      throw new AvroDecodeException(
          "cannot convert Avro payload of "
              + payload.length
              + " bytes with schema "
              + writerSchema.getFullName()
              + ": "
              + e.getClass().getSimpleName(),
          e);
    }
  }

  /** The cached datum reader of {@code writerSchema} (by identity), built on first use. */
  private GenericDatumReader<Object> reader(Schema writerSchema) {
    GenericDatumReader<Object> r = readers.get(writerSchema);
    if (r == null) {
      if (readers.size() >= MAX_CACHED_READERS) {
        readers.clear();
      }
      r = new GenericDatumReader<>(stringReading(writerSchema));
      readers.put(writerSchema, r);
    }
    return r;
  }

  /**
   * A private copy of {@code writerSchema} whose strings (and map keys) are read as {@link String}
   * instead of Avro {@code Utf8} (the {@code avro.java.string} property; the binary layout is
   * unchanged), so no intermediate {@code Utf8} is built per string. Falls back to the schema
   * itself if the copy cannot be made.
   */
  private static Schema stringReading(Schema writerSchema) {
    try {
      Schema copy = new Schema.Parser().parse(writerSchema.toString());
      readStringsAsString(copy, Collections.newSetFromMap(new IdentityHashMap<>()));
      return copy;
    } catch (RuntimeException e) {
      return writerSchema;
    }
  }

  /** Marks every string and map schema reachable from {@code s} with {@code avro.java.string}. */
  private static void readStringsAsString(Schema s, Set<Schema> seen) {
    switch (s.getType()) {
      case STRING -> markString(s);
      case MAP -> {
        markString(s); // map keys
        readStringsAsString(s.getValueType(), seen);
      }
      case ARRAY -> readStringsAsString(s.getElementType(), seen);
      case UNION -> s.getTypes().forEach(t -> readStringsAsString(t, seen));
      case RECORD -> {
        if (seen.add(s)) {
          s.getFields().forEach(f -> readStringsAsString(f.schema(), seen));
        }
      }
      default -> {}
    }
  }

  private static void markString(Schema s) {
    if (s.getProp(GenericData.STRING_PROP) == null) {
      s.addProp(GenericData.STRING_PROP, GenericData.StringType.String.name());
    }
  }

  private static Object convert(Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    LogicalType logical = schema.getLogicalType();
    switch (schema.getType()) {
      case UNION:
        return convertUnion(schema, value);
      case RECORD:
        return convertRecord(schema, (IndexedRecord) value);
      case ARRAY:
        return convertArray(schema, (Collection<?>) value);
      case MAP:
        return convertMap(schema, (Map<?, ?>) value);
      case ENUM:
      case STRING:
        return value.toString();
      case INT:
        if (logical instanceof LogicalTypes.Date) {
          return LocalDate.ofEpochDay(((Integer) value).longValue()).toString();
        }
        return ((Integer) value).longValue();
      case LONG:
        {
          long v = (Long) value;
          if (logical instanceof LogicalTypes.TimestampMillis) {
            return Instant.ofEpochMilli(v);
          }
          if (logical instanceof LogicalTypes.TimestampMicros) {
            return Instant.EPOCH.plus(v, ChronoUnit.MICROS);
          }
          return v;
        }
      case FLOAT:
        return ((Float) value).doubleValue();
      case DOUBLE:
      case BOOLEAN:
        return value;
      case BYTES:
        {
          ByteBuffer buffer = ((ByteBuffer) value).duplicate();
          byte[] bytes = new byte[buffer.remaining()];
          buffer.get(bytes);
          return decimalOrBytes(logical, bytes);
        }
      case FIXED:
        return decimalOrBytes(logical, ((GenericFixed) value).bytes().clone());
      case NULL:
        return null;
    }
    throw new IllegalStateException("unhandled Avro type " + schema.getType());
  }

  /** The common Salesforce shape {@code ["null", T]}: a non-null value is the T branch. */
  private static Object convertUnion(Schema schema, Object value) {
    List<Schema> types = schema.getTypes();
    if (types.size() == 2) {
      if (types.get(0).getType() == Schema.Type.NULL) {
        return convert(types.get(1), value);
      }
      if (types.get(1).getType() == Schema.Type.NULL) {
        return convert(types.get(0), value);
      }
    }
    int branch = GenericData.get().resolveUnion(schema, value);
    return convert(schema.getTypes().get(branch), value);
  }

  private static Map<String, Object> convertRecord(Schema schema, IndexedRecord record) {
    List<Schema.Field> fields = schema.getFields();
    Map<String, Object> out = LinkedHashMap.newLinkedHashMap(fields.size());
    for (Schema.Field field : fields) {
      out.put(field.name(), convert(field.schema(), record.get(field.pos())));
    }
    return out;
  }

  private static List<Object> convertArray(Schema schema, Collection<?> items) {
    List<Object> out = new ArrayList<>(items.size());
    for (Object item : items) {
      out.add(convert(schema.getElementType(), item));
    }
    return out;
  }

  private static Map<String, Object> convertMap(Schema schema, Map<?, ?> value) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : value.entrySet()) {
      out.put(e.getKey().toString(), convert(schema.getValueType(), e.getValue()));
    }
    return out;
  }

  private static Object decimalOrBytes(LogicalType logical, byte[] bytes) {
    if (logical instanceof LogicalTypes.Decimal decimal) {
      return new BigDecimal(new BigInteger(bytes), decimal.getScale());
    }
    return bytes;
  }
}
