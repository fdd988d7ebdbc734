package io.sf2loki.app.health;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-lifetime readiness holder behind {@code /readyz} (SPEC OBS-8, OBS-13). Thread-safe.
 *
 * <p>Evaluation order per request (first match wins): state {@link State#NOT_READY} → 503 {@code
 * not ready}; {@link State#STANDBY} → 503 {@code standby}; otherwise (leading) each degradation
 * predicate in registration order — the first that returns a reason → 503 with that reason as the
 * body (e.g. {@code degraded: loki pushes failing for 3m}); else 200 {@code ready}.
 *
 * <p>Predicates are registered once per application instance and must not capture per-term objects:
 * they read holders that each term installs and clears (OBS-13). A predicate that throws counts as
 * degraded ({@code degraded: readiness check failed}).
 */
public final class Readiness {
  /** Lifecycle state set by the application / coordinator. */
  public enum State {
    /** Before the first leadership acquisition, and during final shutdown. */
    NOT_READY,
    /** After leadership was lost or demoted (HA-4/5). */
    STANDBY,
    /** Leading (or standalone); degradation predicates decide. */
    READY
  }

  /**
   * One {@code /readyz} answer.
   *
   * @param status HTTP status (200 or 503)
   * @param body the exact body (no trailing newline)
   */
  public record Answer(int status, String body) {}

  public static final String NOT_READY_BODY = "not ready";
  public static final String STANDBY_BODY = "standby";
  public static final String READY_BODY = "ready";
  static final String CHECK_FAILED_BODY = "degraded: readiness check failed";

  private static final Logger log = LoggerFactory.getLogger(Readiness.class);

  private final AtomicReference<State> state = new AtomicReference<>(State.NOT_READY);
  private final List<Supplier<Optional<String>>> degradations = new CopyOnWriteArrayList<>();

  /** Sets the lifecycle state. */
  public void set(State newState) {
    state.set(Objects.requireNonNull(newState, "state"));
  }

  /** The current lifecycle state. */
  public State state() {
    return state.get();
  }

  /**
   * Registers a degradation predicate, evaluated per request while {@link State#READY}, in
   * registration order. It returns the whole response body (starting {@code degraded: }) when
   * degraded, else empty. Register once per application instance (OBS-13).
   */
  public void addDegradation(Supplier<Optional<String>> predicate) {
    degradations.add(Objects.requireNonNull(predicate, "predicate"));
  }

  /** Evaluates the current answer (OBS-8). */
  public Answer evaluate() {
    switch (state.get()) {
      case NOT_READY -> {
        return new Answer(503, NOT_READY_BODY);
      }
      case STANDBY -> {
        return new Answer(503, STANDBY_BODY);
      }
      case READY -> {
        for (Supplier<Optional<String>> p : degradations) {
          Optional<String> reason;
          try {
            reason = p.get();
          } catch (RuntimeException e) {
            log.atWarn().addKeyValue("error", e.toString()).log("readiness predicate failed");
            return new Answer(503, CHECK_FAILED_BODY);
          }
          if (reason != null && reason.isPresent()) {
            return new Answer(503, reason.get());
          }
        }
        return new Answer(200, READY_BODY);
      }
      default -> throw new IllegalStateException("unknown state " + state.get());
    }
  }
}
