package io.sf2loki.salesforce.rest;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Objects;

/** A body held in memory (ELF-8, below the spool threshold). Also handy as a test double. */
public final class MemorySpool implements Spool {
  private final byte[] bytes;
  private final int length;

  /** A spool over {@code bytes[0, length)}; the array is not copied. */
  public MemorySpool(byte[] bytes, int length) {
    this.bytes = Objects.requireNonNull(bytes, "bytes");
    if (length < 0 || length > bytes.length) {
      throw new IllegalArgumentException("length out of range");
    }
    this.length = length;
  }

  /** A spool over the whole array. */
  public MemorySpool(byte[] bytes) {
    this(bytes, bytes.length);
  }

  @Override
  public long sizeBytes() {
    return length;
  }

  @Override
  public InputStream open() {
    return new ByteArrayInputStream(bytes, 0, length);
  }

  @Override
  public void close() {}
}
