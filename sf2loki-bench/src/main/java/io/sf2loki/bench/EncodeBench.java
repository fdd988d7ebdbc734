package io.sf2loki.bench;

import io.airlift.compress.snappy.SnappyCompressor;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.loki.encode.JsonEncoder;
import io.sf2loki.loki.encode.ProtobufEncoder;
import io.sf2loki.loki.encode.SnappyCodec;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Stages 3–5 on one default-sized batch (1,000 shaped, labelled entries, SINK-4/5): protobuf
 * serialization, snappy block compression (snappy-java as {@link SnappyCodec} uses it, and
 * aircompressor 2.0.3 for comparison), and JSON + gzip. One operation = one entry.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EncodeBench {
  /** Entries per batch (the SPEC default {@code batch.max_entries}). */
  public static final int BATCH = 1000;

  @Param({"Login"})
  public String eventType;

  private List<LogEntry> batch;
  private ProtobufEncoder protobuf;
  private SnappyCodec snappy;
  private JsonEncoder jsonGzip;
  private byte[] raw;
  private SnappyCompressor air;
  private byte[] airOut;

  @Setup
  public void setup() {
    batch = BenchData.entries(eventType, BATCH, BenchData.metrics());
    snappy = new SnappyCodec();
    protobuf = new ProtobufEncoder(snappy);
    jsonGzip = new JsonEncoder(true);
    raw = protobuf.serialize(batch, true);
    air = new SnappyCompressor();
    airOut = new byte[air.maxCompressedLength(raw.length)];
  }

  /** Batch → uncompressed protobuf {@code PushRequest}. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public byte[] protobuf() {
    return protobuf.serialize(batch, true);
  }

  /** Protobuf bytes → snappy block, through {@link SnappyCodec} (snappy-java, JNI). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public byte[] snappyJava() {
    return snappy.compress(raw);
  }

  /** Protobuf bytes → snappy block with aircompressor 2.0.3 (pure Java), reused output buffer. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int snappyAircompressor() {
    return air.compress(raw, 0, raw.length, airOut, 0, airOut.length);
  }

  /** Batch → JSON push body, gzip-compressed (SINK-5, CFG-23). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public byte[] jsonGzip() {
    return jsonGzip.encode(batch, true).body();
  }
}
