package io.sf2loki.app.cli;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Options of {@code sf2loki sim} (SPEC FEAT-18).
 *
 * @param restPort TCP port of the simulated org's HTTPS-less REST/OAuth server on 127.0.0.1 (0 =
 *     any free port)
 * @param grpcPort TCP port of the simulated Pub/Sub gRPC server (plaintext) on 127.0.0.1 (0 = any)
 * @param rate simulated activity: Pub/Sub events per second over all topics, and rows of each
 *     generated EventLogFile
 * @param faultProfile the fault profile to run
 * @param lokiPort TCP port of the optional Loki-compatible receiver; empty = no receiver
 */
public record SimOptions(
    int restPort, int grpcPort, int rate, FaultProfile faultProfile, OptionalInt lokiPort) {
  /** Default REST port. */
  public static final int DEFAULT_REST_PORT = 18080;

  /** Default gRPC port. */
  public static final int DEFAULT_GRPC_PORT = 17443;

  /** Default activity rate. */
  public static final int DEFAULT_RATE = 100;

  public SimOptions {
    Objects.requireNonNull(faultProfile, "faultProfile");
    Objects.requireNonNull(lokiPort, "lokiPort");
    if (rate <= 0) {
      throw new IllegalArgumentException("sim rate must be > 0");
    }
  }

  /** {@code --fault-profile} values (FEAT-18). */
  public enum FaultProfile {
    /** No faults. */
    NONE,
    /** Access tokens expire after a minute: 401 on REST, UNAUTHENTICATED on Pub/Sub. */
    AUTH_EXPIRY,
    /** Every tenth REST call answers 403 REQUEST_LIMIT_EXCEEDED. */
    RATE_LIMIT,
    /** Every tenth REST call answers 503; Pub/Sub streams drop with UNAVAILABLE now and then. */
    SERVER_ERRORS,
    /** Pub/Sub streams go silent (no events, no keepalives) now and then. */
    STREAM_STALLS,
    /** Every stored replay id is rejected once with {@code replayid.corrupted}. */
    REPLAYID_CORRUPTED;

    /** The CLI spelling, e.g. {@code auth-expiry}. */
    public String cliName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Parses a CLI spelling.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static FaultProfile parse(String s) {
      for (FaultProfile p : values()) {
        if (p.cliName().equals(s)) {
          return p;
        }
      }
      StringBuilder names = new StringBuilder();
      for (FaultProfile p : values()) {
        names.append(names.isEmpty() ? "" : ", ").append(p.cliName());
      }
      throw new IllegalArgumentException(
          "unknown fault profile '" + s + "' (one of: " + names + ")");
    }
  }
}
