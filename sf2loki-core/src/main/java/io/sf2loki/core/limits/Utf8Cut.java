package io.sf2loki.core.limits;

/**
 * Cuts strings on UTF-8 character boundaries. Byte lengths follow {@link
 * io.sf2loki.core.model.LogEntry#utf8Length(String)} (an unpaired surrogate encodes as one byte).
 */
final class Utf8Cut {
  private Utf8Cut() {}

  /**
   * The largest char index {@code end} such that {@code s[0, end)} encodes to at most {@code
   * maxBytes} UTF-8 bytes and does not end inside a surrogate pair.
   */
  static int prefixEnd(String s, int maxBytes) {
    int bytes = 0;
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      int width;
      int chars = 1;
      if (c < 0x80) {
        width = 1;
      } else if (c < 0x800) {
        width = 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        width = 4;
        chars = 2;
      } else if (Character.isSurrogate(c)) {
        width = 1;
      } else {
        width = 3;
      }
      if (bytes + width > maxBytes) {
        break;
      }
      bytes += width;
      i += chars;
    }
    return i;
  }

  /**
   * The smallest char index {@code start} such that {@code s[start, length)} encodes to at most
   * {@code maxBytes} UTF-8 bytes and does not start inside a surrogate pair.
   */
  static int suffixStart(String s, int maxBytes) {
    int bytes = 0;
    int i = s.length();
    while (i > 0) {
      char c = s.charAt(i - 1);
      int width;
      int chars = 1;
      if (c < 0x80) {
        width = 1;
      } else if (c < 0x800) {
        width = 2;
      } else if (Character.isLowSurrogate(c)
          && i - 2 >= 0
          && Character.isHighSurrogate(s.charAt(i - 2))) {
        width = 4;
        chars = 2;
      } else if (Character.isSurrogate(c)) {
        width = 1;
      } else {
        width = 3;
      }
      if (bytes + width > maxBytes) {
        break;
      }
      bytes += width;
      i -= chars;
    }
    return i;
  }
}
