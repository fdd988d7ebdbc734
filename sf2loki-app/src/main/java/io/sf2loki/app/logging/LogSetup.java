package io.sf2loki.app.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.temporal.Temporal;
import java.time.temporal.TemporalAmount;
import java.util.List;
import java.util.Locale;
import net.logstash.logback.composite.JsonProvider;
import net.logstash.logback.composite.loggingevent.ArgumentsJsonProvider;
import net.logstash.logback.composite.loggingevent.KeyValuePairsJsonProvider;
import net.logstash.logback.composite.loggingevent.LoggerNameJsonProvider;
import net.logstash.logback.composite.loggingevent.LoggingEventFormattedTimestampJsonProvider;
import net.logstash.logback.composite.loggingevent.MdcJsonProvider;
import net.logstash.logback.composite.loggingevent.MessageJsonProvider;
import net.logstash.logback.composite.loggingevent.StackTraceJsonProvider;
import net.logstash.logback.decorate.JsonFactoryDecorator;
import net.logstash.logback.encoder.LoggingEventCompositeJsonEncoder;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Programmatic Logback configuration from {@code service.log_level} and {@code service.log_format}
 * (SPEC OBS-9, OBS-10). Replaces whatever configuration the context had (including the bundled
 * {@code logback.xml}, which logs logfmt at INFO until this runs).
 *
 * <ul>
 *   <li>{@code json}: one JSON object per line, fields in order {@code timestamp} (ISO-8601 UTC,
 *       milliseconds), {@code level} ({@code debug|info|warning|error}), {@code event} (the
 *       message), {@code logger}, then SLF4J key/value pairs, structured arguments and MDC entries,
 *       then {@code exception} for failures (logstash-logback-encoder).
 *   <li>{@code logfmt}: the same fields as {@code key=value} ({@link LogfmtLayout}).
 *   <li>Third-party loggers ({@link #THIRD_PARTY_LOGGERS}) are floored at WARN, or at the
 *       configured level if that is stricter.
 * </ul>
 */
public final class LogSetup {
  /** {@code service.log_format}. */
  public enum Format {
    JSON,
    LOGFMT;

    /**
     * Parses {@code json} or {@code logfmt} (case-insensitive).
     *
     * @throws IllegalArgumentException for any other value
     */
    public static Format parse(String value) {
      String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
      return switch (v) {
        case "json" -> JSON;
        case "logfmt" -> LOGFMT;
        default ->
            throw new IllegalArgumentException(
                "log_format must be json or logfmt; got '" + value + "'");
      };
    }
  }

  /** Logger name prefixes floored at WARN (OBS-10). */
  public static final List<String> THIRD_PARTY_LOGGERS =
      List.of(
          "io.grpc",
          "io.netty",
          "java.net.http",
          "jdk.internal.httpclient",
          "com.github.tomakehurst.wiremock",
          "wiremock",
          "org.eclipse.jetty",
          "software.amazon",
          "org.apache.http",
          "org.apache.hc",
          "com.google",
          "io.fabric8",
          "io.opentelemetry",
          "io.prometheus",
          "org.apache.avro");

  private static final String APPENDER_NAME = "sf2loki-stdout";

  private LogSetup() {}

  /**
   * Configures the process's Logback context (the SLF4J binding) to log to stdout.
   *
   * @param level {@code service.log_level} (see {@link SpecLevels#parse(String)})
   * @param format {@code service.log_format} (see {@link Format#parse(String)})
   * @throws IllegalArgumentException for an unknown level or format
   * @throws IllegalStateException if SLF4J is not bound to Logback
   */
  public static void configure(String level, String format) {
    ILoggerFactory f = LoggerFactory.getILoggerFactory();
    if (!(f instanceof LoggerContext ctx)) {
      throw new IllegalStateException("SLF4J is not bound to Logback: " + f.getClass().getName());
    }
    configure(ctx, SpecLevels.parse(level), Format.parse(format), null);
  }

  /**
   * Routes {@code java.util.logging} (grpc-java's and netty's logger) into SLF4J, so their records
   * come out in the configured format with the third-party floor applied (OBS-9, OBS-10) instead of
   * as multi-line JUL text on stderr. Idempotent. The JUL root level is INFO: finer records are
   * never created.
   */
  static synchronized void routeJulToSlf4j() {
    if (!org.slf4j.bridge.SLF4JBridgeHandler.isInstalled()) {
      org.slf4j.bridge.SLF4JBridgeHandler.removeHandlersForRootLogger();
      org.slf4j.bridge.SLF4JBridgeHandler.install();
    }
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.INFO);
  }

  /**
   * Configures {@code ctx}: resets it, attaches one appender writing to {@code outOrNull} (or the
   * process's stdout when null), sets the root level and the third-party floors.
   */
  public static void configure(
      LoggerContext ctx, Level level, Format format, OutputStream outOrNull) {
    ctx.reset();
    routeJulToSlf4j();
    if (ctx.getMDCAdapter() == null) {
      // a context not created by the SLF4J binding (tests) shares the binding's MDC
      ctx.setMDCAdapter(org.slf4j.MDC.getMDCAdapter());
    }
    Encoder<ILoggingEvent> encoder = format == Format.JSON ? jsonEncoder(ctx) : logfmtEncoder(ctx);
    OutputStreamAppender<ILoggingEvent> appender;
    if (outOrNull == null) {
      ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
      console.setTarget("System.out");
      appender = console;
    } else {
      appender = new OutputStreamAppender<>();
      appender.setOutputStream(outOrNull);
    }
    appender.setName(APPENDER_NAME);
    appender.setContext(ctx);
    appender.setEncoder(encoder);
    appender.setImmediateFlush(true);
    appender.start();
    Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(level);
    root.addAppender(appender);
    Level floor = level.isGreaterOrEqual(Level.WARN) ? level : Level.WARN;
    for (String name : THIRD_PARTY_LOGGERS) {
      ctx.getLogger(name).setLevel(floor);
    }
    if (!ctx.isStarted()) {
      ctx.start();
    }
  }

  static Encoder<ILoggingEvent> logfmtEncoder(LoggerContext ctx) {
    LogfmtLayout layout = new LogfmtLayout();
    layout.setContext(ctx);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> enc = new LayoutWrappingEncoder<>();
    enc.setContext(ctx);
    enc.setLayout(layout);
    enc.setCharset(StandardCharsets.UTF_8);
    enc.start();
    return enc;
  }

  static Encoder<ILoggingEvent> jsonEncoder(LoggerContext ctx) {
    LoggingEventCompositeJsonEncoder enc = new LoggingEventCompositeJsonEncoder();
    enc.setContext(ctx);
    enc.setJsonFactoryDecorator(
        new JsonFactoryDecorator() {
          @Override
          public JsonFactory decorate(JsonFactory factory) {
            return timeAsText(factory);
          }
        });
    LoggingEventFormattedTimestampJsonProvider ts =
        new LoggingEventFormattedTimestampJsonProvider();
    ts.setFieldName("timestamp");
    ts.setPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
    ts.setTimeZone("UTC");
    MessageJsonProvider message = new MessageJsonProvider();
    message.setFieldName("event");
    LoggerNameJsonProvider logger = new LoggerNameJsonProvider();
    logger.setFieldName("logger");
    StackTraceJsonProvider stack = new StackTraceJsonProvider();
    stack.setFieldName("exception");
    List<JsonProvider<ILoggingEvent>> providers =
        List.of(
            ts,
            new SpecLevelJsonProvider(),
            message,
            logger,
            new KeyValuePairsJsonProvider(),
            new ArgumentsJsonProvider(),
            new MdcJsonProvider(),
            stack);
    for (JsonProvider<ILoggingEvent> p : providers) {
      p.setContext(ctx);
      enc.getProviders().addProvider(p);
    }
    enc.start();
    return enc;
  }

  /**
   * Renders {@code java.time} key/values ({@code Instant}, {@code OffsetDateTime}, {@code
   * Duration}, …) as their ISO-8601 {@code toString()}. Without it Jackson refuses them and the
   * encoder drops the whole event without a trace.
   */
  private static JsonFactory timeAsText(JsonFactory factory) {
    if (factory.getCodec() instanceof ObjectMapper mapper) {
      SimpleModule time = new SimpleModule("sf2loki-java-time");
      time.addSerializer(Temporal.class, ToStringSerializer.instance);
      time.addSerializer(TemporalAmount.class, ToStringSerializer.instance);
      mapper.registerModule(time);
    }
    return factory;
  }
}
