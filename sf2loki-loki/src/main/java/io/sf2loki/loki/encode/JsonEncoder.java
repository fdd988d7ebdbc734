package io.sf2loki.loki.encode;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sf2loki.core.model.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * JSON push body (SPEC SINK-5): {@code {"streams":[{"stream":{<labels>},"values":[["<unix ns>",
 * "<line>",{<metadata>}],…]},…]}}, written with Jackson's streaming generator. The nanosecond
 * timestamp is exact (integer arithmetic, never a double); the metadata object is always present
 * (possibly {@code {}}); labels and metadata keys are written in code point order. Gzip ({@code
 * Content-Encoding: gzip}) only when constructed with {@code gzip=true} (CFG-23).
 */
public final class JsonEncoder implements LokiEncoder {
  /** {@code Content-Type} of the JSON push body. */
  public static final String CONTENT_TYPE = "application/json";

  private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

  private final JsonFactory factory = new JsonFactory();
  private final boolean gzip;

  /**
   * @param gzip whether to gzip the body and send {@code Content-Encoding: gzip}
   */
  public JsonEncoder(boolean gzip) {
    this.gzip = gzip;
  }

  @Override
  public EncodedRequest encode(List<LogEntry> realEntries, boolean withMetadata) {
    List<Streams.Stream> streams = Streams.group(realEntries);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(estimate(realEntries));
    try {
      OutputStream out = gzip ? new GZIPOutputStream(bytes, 8192) : bytes;
      try (JsonGenerator g = factory.createGenerator(out, JsonEncoding.UTF8)) {
        g.writeStartObject();
        g.writeArrayFieldStart("streams");
        for (Streams.Stream s : streams) {
          g.writeStartObject();
          g.writeObjectFieldStart("stream");
          for (Map.Entry<String, String> p : Streams.sorted(s.labels())) {
            g.writeStringField(Streams.wellFormed(p.getKey()), Streams.wellFormed(p.getValue()));
          }
          g.writeEndObject();
          g.writeArrayFieldStart("values");
          for (LogEntry e : s.entries()) {
            g.writeStartArray();
            g.writeString(unixNanos(e.timestamp()));
            g.writeString(Streams.wellFormed(e.line()));
            g.writeStartObject();
            if (withMetadata) {
              for (Map.Entry<String, String> p : Streams.sorted(e.structuredMetadata())) {
                g.writeStringField(
                    Streams.wellFormed(p.getKey()), Streams.wellFormed(p.getValue()));
              }
            }
            g.writeEndObject();
            g.writeEndArray();
          }
          g.writeEndArray();
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("JSON encoding failed", e);
    }
    return new EncodedRequest(
        bytes.toByteArray(), CONTENT_TYPE, gzip ? "gzip" : null, realEntries.size());
  }

  /**
   * The exact Unix epoch nanosecond count of {@code t} as a decimal string (SINK-5), e.g. {@code
   * 1717566077937000000} for {@code 2024-06-05T05:41:17.937Z}.
   */
  public static String unixNanos(Instant t) {
    long s = t.getEpochSecond();
    if (s > -9_000_000_000L && s < 9_000_000_000L) {
      return Long.toString(s * 1_000_000_000L + t.getNano());
    }
    return BigInteger.valueOf(s)
        .multiply(NANOS_PER_SECOND)
        .add(BigInteger.valueOf(t.getNano()))
        .toString();
  }

  private static int estimate(List<LogEntry> entries) {
    long sum = 64;
    for (LogEntry e : entries) {
      sum += e.lineBytes() + 48L;
    }
    return (int) Math.min(sum, 64L << 20);
  }
}
