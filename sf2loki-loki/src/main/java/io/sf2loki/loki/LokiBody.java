package io.sf2loki.loki;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A Loki response body read up to {@value #LIMIT_BYTES} bytes (SPEC SINK-8: responses are
 * classified from the whole body within that bound, never from a log excerpt; a longer body is
 * marked {@link #truncated()} and never trusted for SINK-16's partial-acceptance analysis).
 *
 * @param text the body as UTF-8 (a multi-byte character cut at the bound becomes U+FFFD)
 * @param truncated whether the body was longer than the bound
 */
record LokiBody(String text, boolean truncated) {
  /** Bytes of a response body read for classification (64 KiB). */
  static final int LIMIT_BYTES = 64 * 1024;

  static final LokiBody EMPTY = new LokiBody("", false);

  /**
   * Reads at most {@link #LIMIT_BYTES} of {@code in} and closes it (the rest is discarded unread).
   *
   * @throws IOException when reading fails
   */
  static LokiBody read(InputStream in) throws IOException {
    try (in) {
      byte[] b = in.readNBytes(LIMIT_BYTES + 1);
      boolean cut = b.length > LIMIT_BYTES;
      int n = cut ? LIMIT_BYTES : b.length;
      return new LokiBody(new String(b, 0, n, StandardCharsets.UTF_8), cut);
    }
  }
}
