package io.sf2loki.sim.org;

import java.time.Instant;
import java.util.Objects;

/**
 * One ApexLog record of the simulated org (the Tooling {@code ApexLog} object, SPEC APX-1).
 *
 * @param id 18-character record id ({@code 07L...})
 * @param logUserId {@code LogUserId} ({@code 005...})
 * @param username {@code LogUser.Username}, used by the {@code users} filter; not returned
 * @param logLength {@code LogLength}: normally the body size in bytes; a test may set another value
 * @param operation {@code Operation}, e.g. {@code /services/data/v60.0/sobjects/Account}
 * @param request {@code Request}, e.g. {@code API}
 * @param status {@code Status}, e.g. {@code Success}
 * @param startTime {@code StartTime} (millisecond precision is what the listing returns)
 * @param application {@code Application}, e.g. {@code Unknown}
 * @param durationMilliseconds {@code DurationMilliseconds}
 * @param location {@code Location}, e.g. {@code Monitoring}
 * @param body the log body served by {@code /tooling/sobjects/ApexLog/<Id>/Body}
 */
public record SimApexLog(
    String id,
    String logUserId,
    String username,
    long logLength,
    String operation,
    String request,
    String status,
    Instant startTime,
    String application,
    int durationMilliseconds,
    String location,
    byte[] body) {
  public SimApexLog {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(logUserId, "logUserId");
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(startTime, "startTime");
    Objects.requireNonNull(body, "body");
  }

  /** A copy with another {@code LogLength} (e.g. to exceed {@code max_body_bytes}). */
  public SimApexLog withLogLength(long length) {
    return new SimApexLog(
        id,
        logUserId,
        username,
        length,
        operation,
        request,
        status,
        startTime,
        application,
        durationMilliseconds,
        location,
        body);
  }
}
