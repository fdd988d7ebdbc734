package io.sf2loki.core.org;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures one class's log events (INFO and above) for a test. */
final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final Level before;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  LogCapture(Class<?> owner) {
    logger = (Logger) LoggerFactory.getLogger(owner);
    before = logger.getLevel();
    logger.setLevel(Level.INFO);
    appender.start();
    logger.addAppender(appender);
  }

  List<ILoggingEvent> events() {
    return List.copyOf(appender.list);
  }

  List<Level> levels() {
    return events().stream().map(ILoggingEvent::getLevel).toList();
  }

  /** The value of key {@code key} in event {@code e}'s key-value pairs, or null. */
  static Object kv(ILoggingEvent e, String key) {
    if (e.getKeyValuePairs() == null) {
      return null;
    }
    return e.getKeyValuePairs().stream()
        .filter(p -> p.key.equals(key))
        .map(p -> p.value)
        .findFirst()
        .orElse(null);
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(before);
  }
}
