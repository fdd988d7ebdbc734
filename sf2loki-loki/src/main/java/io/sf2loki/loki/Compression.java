package io.sf2loki.loki;

/**
 * {@code sink.loki.compression} (SPEC CFG-23). With {@link Encoding#PROTOBUF} the body is always
 * snappy whatever this says; with {@link Encoding#JSON} only {@link #GZIP} compresses ({@link
 * #SNAPPY} and {@link #NONE} send uncompressed JSON).
 */
public enum Compression {
  SNAPPY,
  GZIP,
  NONE
}
