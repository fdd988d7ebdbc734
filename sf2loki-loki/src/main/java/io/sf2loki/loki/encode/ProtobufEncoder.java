package io.sf2loki.loki.encode;

import com.google.protobuf.CodedOutputStream;
import io.sf2loki.core.model.LogEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * Protobuf push body (SPEC SINK-4): a {@code logproto.PushRequest} written field by field with
 * {@link CodedOutputStream} into an exactly sized array, then snappy block-compressed.
 *
 * <p>Wire layout: {@code PushRequest.streams}=1 → {@code StreamAdapter} {{@code labels}=1, {@code
 * entries}=2 → {@code EntryAdapter} {{@code timestamp}=1 → {@code google.protobuf.Timestamp}
 * {seconds=1, nanos=2}, {@code line}=2, {@code structuredMetadata}=3 → {@code LabelPairAdapter}
 * {name=1, value=2}}}. {@code hash} and {@code parsed} are never written; proto3 default values
 * (empty strings, zero seconds/nanos) are omitted exactly as the generated code would. The output
 * is byte-identical to the generated {@code logproto} classes for the same content.
 */
public final class ProtobufEncoder implements LokiEncoder {
  /** {@code Content-Type} of the protobuf push body. */
  public static final String CONTENT_TYPE = "application/x-protobuf";

  private static final int LEN = 2; // wire type length-delimited
  private static final int TAG_1_LEN = (1 << 3) | LEN;
  private static final int TAG_2_LEN = (2 << 3) | LEN;
  private static final int TAG_3_LEN = (3 << 3) | LEN;
  private static final int TAG_1_VARINT = 1 << 3;
  private static final int TAG_2_VARINT = 2 << 3;

  private final SnappyCodec snappy;

  /**
   * @param snappy the block codec applied to the serialized message
   */
  public ProtobufEncoder(SnappyCodec snappy) {
    this.snappy = snappy;
  }

  /** Largest buffer kept per thread between batches (8 MiB); bigger ones are dropped after use. */
  private static final int MAX_RETAINED_BUFFER = 8 << 20;

  /**
   * Per thread (the CPU pool's long-lived threads): [0] the serialized message, [1] the snappy
   * output. Reused so that a batch does not allocate and zero two megabyte-sized arrays.
   */
  private final ThreadLocal<byte[][]> buffers = ThreadLocal.withInitial(() -> new byte[2][]);

  @Override
  public EncodedRequest encode(List<LogEntry> realEntries, boolean withMetadata) {
    byte[][] buf = buffers.get();
    Layout layout = layout(realEntries, withMetadata);
    int total = layout.total();
    byte[] raw = buf[0] != null && buf[0].length >= total ? buf[0] : new byte[total];
    write(layout, raw);
    byte[] body = snappy.compress(raw, 0, total, buf[1]);
    buf[0] = raw.length <= MAX_RETAINED_BUFFER ? raw : null;
    int maxOut = snappy.maxCompressedLength(total);
    if (maxOut <= MAX_RETAINED_BUFFER && (buf[1] == null || buf[1].length < maxOut)) {
      buf[1] = new byte[maxOut]; // sized for this batch; used from the next one on
    }
    return new EncodedRequest(body, CONTENT_TYPE, "snappy", realEntries.size());
  }

  /**
   * The uncompressed serialized {@code PushRequest} (for golden tests and benchmarks).
   *
   * @throws IllegalArgumentException as {@link #encode}
   */
  public byte[] serialize(List<LogEntry> realEntries, boolean withMetadata) {
    Layout layout = layout(realEntries, withMetadata);
    byte[] out = new byte[layout.total()];
    write(layout, out);
    return out;
  }

  /** Sizes computed by the first pass, consumed by {@link #write}. */
  private record Layout(
      List<Streams.Stream> streams,
      String[] labelStrings,
      int[] streamSizes,
      int[] entrySizes,
      int[] tsSizes,
      byte[][] lineUtf8,
      MetadataTable md,
      int total) {}

  private Layout layout(List<LogEntry> realEntries, boolean withMetadata) {
    List<Streams.Stream> streams = Streams.group(realEntries);
    int ns = streams.size();
    String[] labelStrings = new String[ns];
    int[] streamSizes = new int[ns];
    int[] entrySizes = new int[realEntries.size()];
    int[] tsSizes = new int[realEntries.size()];
    // each line is encoded to UTF-8 once (String.getBytes is an intrinsic copy for ASCII lines) and
    // written as raw bytes: identical to writeString, which also falls back to getBytes for
    // unpaired surrogates, but without scanning every line twice (size, then encode)
    byte[][] lineUtf8 = new byte[realEntries.size()][];
    MetadataTable md =
        withMetadata
            ? new MetadataTable(realEntries.size(), realEntries.get(0).structuredMetadata().size())
            : null;
    long total = 0;
    int k = 0;
    for (int s = 0; s < ns; s++) {
      Streams.Stream stream = streams.get(s);
      String labels = Streams.labelString(stream.labels());
      labelStrings[s] = labels;
      long size = labels.isEmpty() ? 0 : 1 + CodedOutputStream.computeStringSizeNoTag(labels);
      for (LogEntry e : stream.entries()) {
        int ts = timestampSize(e.timestamp());
        long es = 1 + CodedOutputStream.computeUInt32SizeNoTag(ts) + ts;
        if (!e.line().isEmpty()) {
          byte[] lb = e.line().getBytes(StandardCharsets.UTF_8);
          lineUtf8[k] = lb;
          es += 1 + CodedOutputStream.computeUInt32SizeNoTag(lb.length) + lb.length;
        }
        if (md != null) {
          es += md.add(e.structuredMetadata()); // sorted and sized once for both passes
        }
        checkSize(es);
        tsSizes[k] = ts;
        entrySizes[k++] = (int) es;
        size += 1 + CodedOutputStream.computeUInt32SizeNoTag((int) es) + es;
      }
      checkSize(size);
      streamSizes[s] = (int) size;
      total += 1 + CodedOutputStream.computeUInt32SizeNoTag((int) size) + size;
    }
    checkSize(total);
    return new Layout(
        streams, labelStrings, streamSizes, entrySizes, tsSizes, lineUtf8, md, (int) total);
  }

  /** Second pass: writes exactly {@code layout.total()} bytes at the start of {@code out}. */
  private static void write(Layout layout, byte[] out) {
    List<Streams.Stream> streams = layout.streams();
    int ns = streams.size();
    String[] labelStrings = layout.labelStrings();
    int[] streamSizes = layout.streamSizes();
    int[] entrySizes = layout.entrySizes();
    int[] tsSizes = layout.tsSizes();
    byte[][] lineUtf8 = layout.lineUtf8();
    MetadataTable md = layout.md();
    CodedOutputStream cos = CodedOutputStream.newInstance(out, 0, layout.total());
    try {
      int k = 0;
      for (int s = 0; s < ns; s++) {
        cos.writeUInt32NoTag(TAG_1_LEN);
        cos.writeUInt32NoTag(streamSizes[s]);
        if (!labelStrings[s].isEmpty()) {
          cos.writeString(1, labelStrings[s]);
        }
        for (LogEntry e : streams.get(s).entries()) {
          cos.writeUInt32NoTag(TAG_2_LEN);
          cos.writeUInt32NoTag(entrySizes[k]);
          writeTimestamp(cos, e.timestamp(), tsSizes[k]);
          if (lineUtf8[k] != null) {
            cos.writeByteArray(2, lineUtf8[k]);
          }
          if (md != null) {
            for (int i = md.from(k), end = md.to(k); i < end; i++) {
              String name = md.name(i);
              String value = md.value(i);
              cos.writeUInt32NoTag(TAG_3_LEN);
              cos.writeUInt32NoTag(md.pairSize(i));
              if (!name.isEmpty()) {
                cos.writeString(1, name);
              }
              if (!value.isEmpty()) {
                cos.writeString(2, value);
              }
            }
          }
          k++;
        }
      }
      cos.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("protobuf size mismatch", e);
    }
  }

  private static int timestampSize(Instant t) {
    int size = 0;
    if (t.getEpochSecond() != 0) {
      size += 1 + CodedOutputStream.computeInt64SizeNoTag(t.getEpochSecond());
    }
    if (t.getNano() != 0) {
      size += 1 + CodedOutputStream.computeInt32SizeNoTag(t.getNano());
    }
    return size;
  }

  private static void writeTimestamp(CodedOutputStream cos, Instant t, int size)
      throws IOException {
    cos.writeUInt32NoTag(TAG_1_LEN);
    cos.writeUInt32NoTag(size);
    if (t.getEpochSecond() != 0) {
      cos.writeUInt32NoTag(TAG_1_VARINT);
      cos.writeInt64NoTag(t.getEpochSecond());
    }
    if (t.getNano() != 0) {
      cos.writeUInt32NoTag(TAG_2_VARINT);
      cos.writeInt32NoTag(t.getNano());
    }
  }

  private static void checkSize(long size) {
    if (size > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("push request larger than 2 GiB");
    }
  }
}
