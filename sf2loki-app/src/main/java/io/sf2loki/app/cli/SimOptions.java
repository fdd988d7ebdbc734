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
    /**
     * Access tokens expire a minute after issue: 401 {@code INVALID_SESSION_ID} on REST, {@code
     * UNAUTHENTICATED} on Pub/Sub (open streams end when they next act).
     */
    AUTH_EXPIRY,
    /**
     * Every 30 s, the next REST SOQL query answers 403 {@code REQUEST_LIMIT_EXCEEDED} (REST SOQL
     * only: Pub/Sub and EventLogFile downloads are not affected).
     */
    RATE_LIMIT,
    /**
     * Every 30 s, the next REST SOQL query answers 503 and every open Pub/Sub stream ends with
     * {@code UNAVAILABLE}.
     */
    SERVER_ERRORS,
    /**
     * Every 10 minutes (first after 30 s) the first Pub/Sub topic goes silent (no events, no
     * keepalives) for 330 s, longer than the client's 300 s watchdog (PS-8).
     */
    STREAM_STALLS,
    /**
     * Every 30 s, open Pub/Sub streams end with {@code UNAVAILABLE} and their resubscription is
     * refused with {@code INVALID_ARGUMENT} and {@code replayid.corrupted} (PS-15).
     */
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
