package io.sf2loki.sim.loki;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import logproto.EntryAdapter;
import logproto.LabelPairAdapter;
import logproto.PushRequest;
import logproto.StreamAdapter;
import org.xerial.snappy.Snappy;

/**
 * Decodes Loki push bodies (SINK-4, SINK-5) into {@link PushedStream}s, the way Loki's distributor
 * reads them: protobuf ({@code Content-Type: application/x-protobuf} or none) is always
 * raw/block-snappy decompressed; JSON ({@code application/json}) may be gzip- or deflate-encoded.
 * Reusable by tests of other modules. Stateless and thread-safe.
 */
public final class LokiPushDecoder {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BigInteger BILLION = BigInteger.valueOf(1_000_000_000L);

  private LokiPushDecoder() {}

  /** A body Loki would refuse with 400; the message is Loki-style text. */
  public static final class MalformedPushException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedPushException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Decodes a body by its headers.
   *
   * @param contentType the Content-Type header or null
   * @param contentEncoding the Content-Encoding header or null
   * @throws MalformedPushException when the body cannot be decoded
   */
  public static List<PushedStream> decode(byte[] body, String contentType, String contentEncoding)
      throws MalformedPushException {
    String ct = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    if (ct.startsWith("application/json")) {
      String ce = contentEncoding == null ? "" : contentEncoding.strip().toLowerCase(Locale.ROOT);
      return switch (ce) {
        case "" -> decodeJson(body);
        case "gzip" -> decodeJson(inflate(body, true));
        case "deflate" -> decodeJson(inflate(body, false));
        default ->
            throw new MalformedPushException(
                "Content-Encoding \"" + contentEncoding + "\" not supported");
      };
    }
    return decodeProtobufSnappy(body);
  }

  /** Decodes a raw-snappy-compressed {@code logproto.PushRequest}. */
  public static List<PushedStream> decodeProtobufSnappy(byte[] body) throws MalformedPushException {
    byte[] raw;
    try {
      raw = Snappy.uncompress(body);
    } catch (IOException e) {
      throw new MalformedPushException("snappy: corrupt input");
    }
    return decodeProtobuf(raw);
  }

  /** Decodes an uncompressed {@code logproto.PushRequest}. */
  public static List<PushedStream> decodeProtobuf(byte[] raw) throws MalformedPushException {
    PushRequest req;
    try {
      req = PushRequest.parseFrom(raw);
    } catch (InvalidProtocolBufferException e) {
      throw new MalformedPushException("proto: " + e.getMessage());
    }
    List<PushedStream> out = new ArrayList<>(req.getStreamsCount());
    for (StreamAdapter s : req.getStreamsList()) {
      List<PushedEntry> entries = new ArrayList<>(s.getEntriesCount());
      for (EntryAdapter e : s.getEntriesList()) {
        Instant ts =
            e.hasTimestamp()
                ? Instant.ofEpochSecond(e.getTimestamp().getSeconds(), e.getTimestamp().getNanos())
                : null;
        Map<String, String> md = new LinkedHashMap<>();
        for (LabelPairAdapter p : e.getStructuredMetadataList()) {
          md.put(p.getName(), p.getValue());
        }
        entries.add(new PushedEntry(ts, e.getLine(), md));
      }
      out.add(new PushedStream(s.getLabels(), entries));
    }
    return out;
  }

  /** Decodes an uncompressed JSON push body. */
  public static List<PushedStream> decodeJson(byte[] body) throws MalformedPushException {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw new MalformedPushException("loghttp.PushRequest: " + e.getMessage());
    }
    if (root == null || !root.isObject() || !root.path("streams").isArray()) {
      throw new MalformedPushException("loghttp.PushRequest: missing streams array");
    }
    List<PushedStream> out = new ArrayList<>();
    for (JsonNode s : root.get("streams")) {
      JsonNode stream = s.path("stream");
      Map<String, String> labels = new LinkedHashMap<>();
      if (stream.isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> it = stream.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> f = it.next();
          labels.put(f.getKey(), f.getValue().asText());
        }
      }
      List<PushedEntry> entries = new ArrayList<>();
      for (JsonNode v : s.path("values")) {
        if (!v.isArray() || v.size() < 2 || v.size() > 3 || !v.get(0).isTextual()) {
          throw new MalformedPushException(
              "loghttp.PushRequest: each value must be [\"<ns>\", \"<line>\"(, {metadata})]");
        }
        Instant ts;
        try {
          BigInteger[] qr = new BigInteger(v.get(0).asText()).divideAndRemainder(BILLION);
          ts = Instant.ofEpochSecond(qr[0].longValueExact(), qr[1].longValue());
        } catch (NumberFormatException | ArithmeticException e) {
          throw new MalformedPushException(
              "loghttp.PushRequest: invalid timestamp \"" + v.get(0).asText() + "\"");
        }
        Map<String, String> md = new LinkedHashMap<>();
        if (v.size() == 3) {
          JsonNode m = v.get(2);
          if (!m.isObject()) {
            throw new MalformedPushException("loghttp.PushRequest: metadata must be an object");
          }
          for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isValueNode()) {
              throw new MalformedPushException(
                  "loghttp.PushRequest: structured metadata values must be strings");
            }
            md.put(f.getKey(), f.getValue().asText());
          }
        }
        entries.add(new PushedEntry(ts, v.get(1).asText(), md));
      }
      out.add(new PushedStream(LokiLabels.render(labels), entries));
    }
    return out;
  }

  private static byte[] inflate(byte[] body, boolean gzip) throws MalformedPushException {
    try (InputStream in =
        gzip
            ? new GZIPInputStream(new ByteArrayInputStream(body))
            : new InflaterInputStream(new ByteArrayInputStream(body))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new MalformedPushException((gzip ? "gzip: " : "flate: ") + e.getMessage());
    }
  }
}
