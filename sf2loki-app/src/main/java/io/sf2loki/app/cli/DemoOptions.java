package io.sf2loki.app.cli;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Options of {@code sf2loki demo} (SPEC FEAT-17). The demo takes no configuration file: {@code demo
 * --config} is refused.
 *
 * @param duration how long the demo pipeline runs (Duration, &gt; 0; default {@link
 *     #DEFAULT_DURATION})
 * @param rate rows of each generated EventLogFile, when given (&gt; 0); empty = the demo's default
 * @param lokiUrl a real Loki push URL to send to instead of the built-in receiver, when given
 */
public record DemoOptions(Duration duration, OptionalInt rate, Optional<URI> lokiUrl) {
  /** SPEC FEAT-17 default duration. */
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);

  public DemoOptions {
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(rate, "rate");
    Objects.requireNonNull(lokiUrl, "lokiUrl");
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("demo duration must be > 0");
    }
  }
}
