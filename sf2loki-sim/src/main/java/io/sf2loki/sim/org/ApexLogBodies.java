package io.sf2loki.sim.org;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SplittableRandom;

/** Deterministic, plausible debug-log bodies for the simulated ApexLogs (SPEC APX-5). */
final class ApexLogBodies {
  private ApexLogBodies() {}

  /** A debug log of 5–40 lines for log number {@code n} of {@code user} at {@code t}. */
  static String body(SplittableRandom rnd, String userId, String user, Instant t, int n) {
    String clock =
        DateTimeFormatter.ofPattern("HH:mm:ss.S", Locale.ROOT)
            .withZone(java.time.ZoneOffset.UTC)
            .format(t);
    StringBuilder b = new StringBuilder(1024);
    b.append("60.0 APEX_CODE,FINEST;APEX_PROFILING,INFO;CALLOUT,INFO;DB,INFO;SYSTEM,DEBUG;")
        .append("VALIDATION,INFO;VISUALFORCE,INFO;WORKFLOW,INFO\n");
    long nanos = 1_000_000L + rnd.nextInt(1_000_000);
    b.append(clock)
        .append(" (")
        .append(nanos)
        .append(")|USER_INFO|[EXTERNAL]|")
        .append(userId)
        .append('|')
        .append(user)
        .append("|(GMT+00:00) Coordinated Universal Time (UTC)|GMT+00:00\n");
    b.append(clock).append(" (").append(nanos += 1000).append(")|EXECUTION_STARTED\n");
    b.append(clock)
        .append(" (")
        .append(nanos += 1000)
        .append(")|CODE_UNIT_STARTED|[EXTERNAL]|execute_anonymous_apex\n");
    int lines = 1 + rnd.nextInt(36);
    for (int i = 0; i < lines; i++) {
      nanos += 1 + rnd.nextInt(500_000);
      b.append(clock)
          .append(" (")
          .append(nanos)
          .append(")|USER_DEBUG|[")
          .append(i + 1)
          .append("]|DEBUG|log ")
          .append(n)
          .append(" line ")
          .append(i)
          .append(" value=")
          .append(rnd.nextLong())
          .append('\n');
    }
    b.append(clock)
        .append(" (")
        .append(nanos += 1000)
        .append(")|CODE_UNIT_FINISHED|execute_anonymous_apex\n");
    b.append(clock).append(" (").append(nanos + 1000).append(")|EXECUTION_FINISHED\n");
    return b.toString();
  }
}
