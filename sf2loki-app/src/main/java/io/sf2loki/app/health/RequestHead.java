package io.sf2loki.app.health;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The parts of an HTTP/1.x request head the health server uses (SPEC OBS-7): the method, the exact
 * request target and the first {@code Accept} header (FEAT-3 content negotiation).
 *
 * @param method the request method as sent (e.g. {@code GET})
 * @param target the request target exactly as sent, query string included
 * @param accept the first {@code Accept} header value, or null
 */
record RequestHead(String method, String target, String accept) {

  /**
   * The index just past the blank line that ends a head in {@code buf[0, len)}, scanning from
   * {@code from}; -1 when the head is not complete yet. CRLF and bare LF line ends are accepted.
   */
  static int endOf(byte[] buf, int from, int len) {
    for (int i = Math.max(0, from); i < len; i++) {
      if (buf[i] != '\n') {
        continue;
      }
      int j = i - 1;
      if (j >= 0 && buf[j] == '\r') {
        j--;
      }
      if (j >= 0 && buf[j] == '\n') {
        return i + 1;
      }
    }
    return -1;
  }

  /**
   * Parses a complete head ({@code buf[0, end)}, as found by {@link #endOf}).
   *
   * @return the head, or null when the request line is not {@code METHOD SP target SP HTTP/x}
   */
  static RequestHead parse(byte[] buf, int end) {
    String text = new String(buf, 0, end, StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r?\n");
    String[] first = lines.length == 0 ? new String[0] : lines[0].split(" ", -1);
    if (first.length != 3
        || first[0].isEmpty()
        || first[1].isEmpty()
        || !first[2].startsWith("HTTP/")) {
      return null;
    }
    String accept = null;
    for (int i = 1; i < lines.length && accept == null; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0
          && lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("accept")) {
        accept = lines[i].substring(colon + 1).trim();
      }
    }
    return new RequestHead(first[0], first[1], accept);
  }
}
