package io.sf2loki.salesforce.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Records the WARN and ERROR events of one class's logger until {@link #close()}; each event as its
 * message followed by its key/value pairs and its exception chain ({@code exception=<class>:
 * <message>} per link), the text a log line carries.
 */
public final class LogRecorder implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogRecorder(Logger logger) {
    this.logger = logger;
    appender.start();
    logger.addAppender(appender);
  }

  /** Starts recording the logger named after {@code type}. */
  public static LogRecorder of(Class<?> type) {
    return new LogRecorder((Logger) LoggerFactory.getLogger(type));
  }

  /** Every recorded WARN or ERROR event as {@code message key=value …}, in order. */
  public List<String> failures() {
    synchronized (appender) {
      return appender.list.stream()
          .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
          .map(LogRecorder::text)
          .toList();
    }
  }

  private static String text(ILoggingEvent e) {
    StringBuilder b = new StringBuilder(e.getFormattedMessage());
    if (e.getKeyValuePairs() != null) {
      e.getKeyValuePairs().forEach(kv -> b.append(' ').append(kv.key).append('=').append(kv.value));
    }
    for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
      b.append(" exception=").append(t.getClassName()).append(": ").append(t.getMessage());
    }
    return b.toString();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}
