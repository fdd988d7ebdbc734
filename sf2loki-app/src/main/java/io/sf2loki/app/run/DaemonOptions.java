package io.sf2loki.app.run;

import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.TimeSource;
import java.util.function.UnaryOperator;

/**
 * How a {@link Daemon} is run beyond its configuration: used by {@code sf2loki demo} and tests.
 *
 * @param finite the EventLogFile source returns after its first cycle with nothing new, so the term
 *     ends on its own once everything listed was delivered (demo, tests)
 * @param extraReader an additional metric reader (tests: InMemoryMetricReader), or null
 * @param sinkDecorator wraps the Loki sink (demo: counts delivered entries)
 * @param time clocks and sleeper
 */
public record DaemonOptions(
    boolean finite, MetricReader extraReader, UnaryOperator<Sink> sinkDecorator, TimeSource time) {

  /** The production daemon: endless sources, real time. */
  public static DaemonOptions production() {
    return new DaemonOptions(false, null, UnaryOperator.identity(), TimeSource.system());
  }
}
