package io.sf2loki.sim.loki;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The receiver's byte-level HTTP helpers: plain-text answers and draining an oversized body. */
final class ReceiverHttp {
  private ReceiverHttp() {}

  /** Answers {@code text} as {@code text/plain; charset=utf-8} (no body when empty). */
  static void sendText(HttpExchange ex, int status, String text) throws IOException {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
    if (b.length > 0) {
      try (OutputStream os = ex.getResponseBody()) {
        os.write(b);
      }
    }
  }

  /** Reads {@code in} to its end; returns the bytes skipped. */
  static long drain(InputStream in) throws IOException {
    long n = 0;
    byte[] buf = new byte[65536];
    int r;
    while ((r = in.read(buf)) >= 0) {
      n += r;
    }
    return n;
  }
}
