package io.sf2loki.app.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * Formats one event as one logfmt line (SPEC OBS-9, {@code log_format=logfmt}): {@code
 * timestamp=<ISO-8601 UTC ms> level=<debug|info|warning|error> event=<message> logger=<name>}, then
 * the SLF4J key/value pairs, then MDC entries, then {@code exception=<rendered stack trace>} for
 * failures. Values containing spaces, quotes, {@code =}, backslashes or control characters (or
 * empty values) are double-quoted with {@code \" \\ \n \r \t} escapes, so every event stays on one
 * line.
 */
public final class LogfmtLayout extends LayoutBase<ILoggingEvent> {
  static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  @Override
  public String doLayout(ILoggingEvent event) {
    StringBuilder sb = new StringBuilder(160);
    pair(sb, "timestamp", TIMESTAMP.format(Instant.ofEpochMilli(event.getTimeStamp())));
    pair(sb, "level", SpecLevels.name(event.getLevel()));
    pair(sb, "event", event.getFormattedMessage());
    pair(sb, "logger", event.getLoggerName());
    List<KeyValuePair> kvs = event.getKeyValuePairs();
    if (kvs != null) {
      for (KeyValuePair kv : kvs) {
        pair(sb, kv.key, kv.value == null ? "null" : String.valueOf(kv.value));
      }
    }
    Map<String, String> mdc = event.getMDCPropertyMap();
    if (mdc != null) {
      mdc.forEach((k, v) -> pair(sb, k, v == null ? "null" : v));
    }
    IThrowableProxy tp = event.getThrowableProxy();
    if (tp != null) {
      pair(sb, "exception", ThrowableProxyUtil.asString(tp).stripTrailing());
    }
    sb.append(CoreConstants.LINE_SEPARATOR);
    return sb.toString();
  }

  private static void pair(StringBuilder sb, String key, String value) {
    if (!sb.isEmpty()) {
      sb.append(' ');
    }
    sb.append(key).append('=');
    appendValue(sb, value == null ? "" : value);
  }

  static void appendValue(StringBuilder sb, String v) {
    boolean quote = v.isEmpty();
    for (int i = 0; i < v.length() && !quote; i++) {
      char c = v.charAt(i);
      quote = c <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7f;
    }
    if (!quote) {
      sb.append(v);
      return;
    }
    sb.append('"');
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < ' ' || c == 0x7f) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
