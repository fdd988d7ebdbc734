package io.sf2loki.loki.encode;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.xerial.snappy.Snappy;

/**
 * Snappy <em>block</em> (raw, unframed) compression, the only snappy format Loki's protobuf push
 * path accepts (SPEC SINK-4). The one place that names the codec library (snappy-java), so a
 * benchmark can swap in another implementation. Stateless and thread-safe.
 */
public final class SnappyCodec {

  /**
   * Compresses {@code len} bytes of {@code in} starting at {@code off}.
   *
   * @return a new array holding exactly the raw snappy block
   * @throws UncheckedIOException if the native codec fails
   */
  public byte[] compress(byte[] in, int off, int len) {
    try {
      byte[] out = new byte[Snappy.maxCompressedLength(len)];
      int n = Snappy.compress(in, off, len, out, 0);
      return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    } catch (IOException e) {
      throw new UncheckedIOException("snappy compression failed", e);
    }
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
    if (scratch == null || scratch.length < maxCompressedLength(len)) {
      return compress(in, off, len);
    }
    try {
      int n = Snappy.compress(in, off, len, scratch, 0);
      return java.util.Arrays.copyOf(scratch, n);
    } catch (IOException e) {
      throw new UncheckedIOException("snappy compression failed", e);
    }
  }

  /** Largest snappy block {@code len} input bytes can produce, in bytes. */
  public int maxCompressedLength(int len) {
    return Snappy.maxCompressedLength(len);
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
    return Snappy.uncompress(block);
  }
}
