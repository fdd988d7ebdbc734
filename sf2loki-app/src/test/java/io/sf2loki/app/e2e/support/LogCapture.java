package io.sf2loki.app.e2e.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/** Captures the Logback events of one logger with a {@link ListAppender} until {@link #close()}. */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
    appender.setName("e2e-capture");
    appender.start();
    logger.addAppender(appender);
  }

  /** Starts capturing the events of the logger named after {@code type}. */
  public static LogCapture of(Class<?> type) {
    return new LogCapture((Logger) LoggerFactory.getLogger(type));
  }

  /** Starts capturing every logger's events (the root logger's appender). */
  public static LogCapture root() {
    return new LogCapture((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME));
  }

  /**
   * Every captured event as its log line would carry it: the formatted message, the key/value pairs
   * and the exception chain's messages.
   */
  public List<String> texts() {
    synchronized (appender) {
      return appender.list.stream().map(LogCapture::text).toList();
    }
  }

  private static String text(ILoggingEvent e) {
    StringBuilder b = new StringBuilder(e.getFormattedMessage());
    keyValues(e).forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
    for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
      b.append(" exception=").append(t.getClassName()).append(": ").append(t.getMessage());
    }
    return b.toString();
  }

  /** Captured events with this level and exactly this message. */
  public List<ILoggingEvent> events(Level level, String message) {
    synchronized (appender) {
      return appender.list.stream()
          .filter(e -> e.getLevel() == level && message.equals(e.getMessage()))
          .toList();
    }
  }

  /** The SLF4J key/value pairs of an event, in order. */
  public static Map<String, Object> keyValues(ILoggingEvent event) {
    Map<String, Object> out = new LinkedHashMap<>();
    List<KeyValuePair> kvs = event.getKeyValuePairs();
    if (kvs != null) {
      kvs.forEach(kv -> out.put(kv.key, kv.value));
    }
    return out;
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}
