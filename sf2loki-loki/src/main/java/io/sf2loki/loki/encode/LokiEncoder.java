package io.sf2loki.loki.encode;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.loki.Compression;
import io.sf2loki.loki.Encoding;
import java.util.List;

/**
 * Encodes real entries into one Loki push request body (SPEC SINK-4…SINK-6). Implementations are
 * stateless and thread-safe; encoding the same entries twice yields the same bytes (PIPE-26).
 */
public sealed interface LokiEncoder permits ProtobufEncoder, JsonEncoder {

  /**
   * Encodes {@code realEntries}, grouped into one stream per distinct label set (SINK-6).
   *
   * @param realEntries real (not checkpoint-only) entries in batch order; must not be empty
   * @param withMetadata whether structured metadata is sent (SINK-12); when false the JSON metadata
   *     object is {@code {}} and protobuf carries no pairs
   * @return the body with its content type and encoding
   * @throws IllegalArgumentException if {@code realEntries} is empty or holds a checkpoint-only
   *     entry
   */
  EncodedRequest encode(List<LogEntry> realEntries, boolean withMetadata);

  /**
   * The encoder for a configuration (CFG-23): protobuf is always snappy; JSON is gzip only for
   * {@link Compression#GZIP}, otherwise uncompressed.
   */
  static LokiEncoder of(Encoding encoding, Compression compression) {
    return switch (encoding) {
      case PROTOBUF -> new ProtobufEncoder(new SnappyCodec());
      case JSON -> new JsonEncoder(compression == Compression.GZIP);
    };
  }
}
