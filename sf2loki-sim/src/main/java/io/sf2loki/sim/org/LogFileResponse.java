package io.sf2loki.sim.org;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * Writes an EventLogFile {@code LogFile} body (ELF-8, ELF-16) the way Salesforce does: {@code 200
 * application/octetstream}, gzip-encoded when the client accepts it, or cut after about half of the
 * body for {@link Fault.Kind#TRUNCATED_BODY}.
 */
final class LogFileResponse {
  private LogFileResponse() {}

  /** Sends {@code f}'s body; {@code truncate} drops the connection after about half of it. */
  static void send(HttpExchange ex, SimLogFile f, boolean truncate) throws IOException {
    // the type Salesforce documents for LogFile ("Get Event Monitoring Content from a Record")
    ex.getResponseHeaders().set("Content-Type", "application/octetstream");
    String ae = ex.getRequestHeaders().getFirst("Accept-Encoding");
    boolean gzip = !truncate && ae != null && ae.toLowerCase(Locale.ROOT).contains("gzip");
    try (InputStream in = f.body().open()) {
      if (truncate) {
        long len = f.length();
        ex.sendResponseHeaders(200, len == 0 ? -1 : len);
        OutputStream os = ex.getResponseBody();
        long half = len / 2;
        byte[] buf = new byte[(int) Math.min(half, 65536) + 1];
        long left = half;
        while (left > 0) {
          int n = in.read(buf, 0, (int) Math.min(buf.length, left));
          if (n < 0) {
            break;
          }
          os.write(buf, 0, n);
          left -= n;
        }
        os.flush();
        // closing with bytes missing makes the JDK server drop the connection
        return;
      }
      if (gzip) {
        ex.getResponseHeaders().set("Content-Encoding", "gzip");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream os = new GZIPOutputStream(ex.getResponseBody(), 65536)) {
          in.transferTo(os);
        }
      } else {
        long len = f.body().lengthKnown() ? f.length() : 0;
        ex.sendResponseHeaders(200, len == 0 && f.body().lengthKnown() ? -1 : len);
        try (OutputStream os = ex.getResponseBody()) {
          in.transferTo(os);
        }
      }
    }
  }
}
