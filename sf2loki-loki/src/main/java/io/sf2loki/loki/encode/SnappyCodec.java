package io.sf2loki.loki.encode;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/**
 * Snappy <em>block</em> (raw, unframed) compression, the only snappy format Loki's protobuf push
 * path accepts (SPEC SINK-4). The one place that names the codec libraries: snappy-java (JNI, its
 * native library extracted to {@code org.xerial.snappy.tempdir} at first use) and, when that native
 * library cannot load (a {@code noexec} or read-only temp directory), the pure-Java aircompressor
 * snappy (SINK-18). Both write the same block format and read each other's output. The
 * implementation is chosen once per JVM by {@link #load(Optional)} (or on first use), which logs
 * one WARN when it falls back. Stateless and thread-safe.
 */
public final class SnappyCodec {
  private static final Logger LOG = LoggerFactory.getLogger(SnappyCodec.class);

  /** The system property snappy-java reads for its extraction directory (SINK-18, CFG-34). */
  public static final String TEMPDIR_PROPERTY = "org.xerial.snappy.tempdir";

  /** Which snappy implementation the JVM uses; its name is the startup log field value. */
  public enum Implementation {
    /** snappy-java with its native library. */
    NATIVE,
    /** aircompressor's pure-Java snappy (SINK-18 fallback). */
    JAVA
  }

  private static volatile Implementation selected;

  private final Implementation impl;

  /** A codec on the JVM-wide implementation ({@link #load(Optional)} runs if nothing chose yet). */
  public SnappyCodec() {
    this(load(Optional.empty()));
  }

  /** A codec on a given implementation (tests and benchmarks compare the two). */
  public SnappyCodec(Implementation impl) {
    this.impl = Objects.requireNonNull(impl, "impl");
  }

  /**
   * Chooses the JVM-wide implementation once (SINK-18): sets {@code org.xerial.snappy.tempdir} to
   * {@code tempDir} when given and not already chosen, then loads snappy-java and round-trips a
   * probe block; when that fails, WARNs once and selects {@link Implementation#JAVA}. Later calls
   * return the first choice (a JNI library loads once per JVM).
   *
   * @param tempDir {@code sink.loki.snappy_tempdir} (CFG-34), or empty for snappy-java's default
   * @return the implementation in use
   */
  public static synchronized Implementation load(Optional<Path> tempDir) {
    if (selected == null) {
      tempDir.ifPresent(d -> System.setProperty(TEMPDIR_PROPERTY, d.toString()));
      selected = select(SnappyCodec::probeNative);
    }
    return selected;
  }

  /** The implementation chosen so far, if any. */
  public static Optional<Implementation> current() {
    return Optional.ofNullable(selected);
  }

  /** A probe that throws when the native codec cannot load or work. */
  @FunctionalInterface
  interface NativeProbe {
    void run() throws Exception;
  }

  /** Seam of {@link #load}: runs {@code probe}, falling back to Java on any load failure. */
  static Implementation select(NativeProbe probe) {
    try {
      probe.run();
      return Implementation.NATIVE;
    } catch (Exception | LinkageError | SnappyError e) {
      LOG.atWarn()
          .addKeyValue("snappy_tempdir", System.getProperty(TEMPDIR_PROPERTY, "<java.io.tmpdir>"))
          .addKeyValue("error", e.toString())
          .log(
              "snappy-java native library cannot load; using the pure-Java snappy codec (slower);"
                  + " set sink.loki.snappy_tempdir to an exec-mounted writable directory");
      return Implementation.JAVA;
    }
  }

  private static void probeNative() throws IOException {
    byte[] probe = "sf2loki snappy probe".getBytes(StandardCharsets.UTF_8);
    if (!Arrays.equals(Snappy.uncompress(Snappy.compress(probe)), probe)) {
      throw new IOException("snappy-java round trip mismatch");
    }
  }

  /** The implementation this codec uses. */
  public Implementation implementation() {
    return impl;
  }

  /**
   * Compresses {@code len} bytes of {@code in} starting at {@code off}.
   *
   * @return a new array holding exactly the raw snappy block
   * @throws UncheckedIOException if the native codec fails
   */
  public byte[] compress(byte[] in, int off, int len) {
    return compress(in, off, len, null);
  }

  /**
   * Compresses {@code len} bytes of {@code in} starting at {@code off} through {@code scratch} when
   * it is large enough (at least {@link #maxCompressedLength(int)} bytes), else through a fresh
   * buffer. The output is identical to {@link #compress(byte[], int, int)}.
   *
   * @param scratch a reusable output buffer, or null
   * @return a new array holding exactly the raw snappy block
   * @throws UncheckedIOException if the native codec fails
   */
  public byte[] compress(byte[] in, int off, int len, byte[] scratch) {
    int max = maxCompressedLength(len);
    byte[] out = scratch == null || scratch.length < max ? new byte[max] : scratch;
    int n;
    if (impl == Implementation.NATIVE) {
      try {
        n = Snappy.compress(in, off, len, out, 0);
      } catch (IOException e) {
        throw new UncheckedIOException("snappy compression failed", e);
      }
    } else {
      n = new SnappyCompressor().compress(in, off, len, out, 0, out.length);
    }
    return n == out.length && out != scratch ? out : Arrays.copyOf(out, n);
  }

  /** Largest snappy block {@code len} input bytes can produce, in bytes. */
  public int maxCompressedLength(int len) {
    return impl == Implementation.NATIVE
        ? Snappy.maxCompressedLength(len)
        : new SnappyCompressor().maxCompressedLength(len);
  }

  /** Compresses a whole array; see {@link #compress(byte[], int, int)}. */
  public byte[] compress(byte[] in) {
    return compress(in, 0, in.length);
  }

  /**
   * Decompresses a raw snappy block.
   *
   * @throws IOException if {@code block} is not a valid snappy block
   */
  public byte[] uncompress(byte[] block) throws IOException {
    if (impl == Implementation.NATIVE) {
      return Snappy.uncompress(block);
    }
    try {
      byte[] out = new byte[SnappyDecompressor.getUncompressedLength(block, 0)];
      int n = new SnappyDecompressor().decompress(block, 0, block.length, out, 0, out.length);
      return n == out.length ? out : Arrays.copyOf(out, n);
    } catch (MalformedInputException e) {
      throw new IOException("invalid snappy block: " + e.getMessage(), e);
    }
  }
}
