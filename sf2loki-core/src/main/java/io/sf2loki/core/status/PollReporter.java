package io.sf2loki.core.status;

/**
 * Where a source reports how each poll of one of its checkpointed things ended (SPEC FEAT-3,
 * OBS-35): the polling sources per object, event type or {@code apexlog}, a Pub/Sub reader per
 * topic. The source id is the thing's checkpoint key (SPEC §3.3), e.g. {@code
 * eventlog_objects:LoginEvent}. Implementations are thread-safe, never block and never throw.
 */
public interface PollReporter {
  /** The redaction of {@link #redact(String)} when the reporter knows no secret value. */
  Redaction PATTERNS = Redaction.patternsOnly();

  /** A reporter that records nothing. */
  PollReporter NONE =
      new PollReporter() {
        @Override
        public void ok(String sourceId) {}

        @Override
        public void failed(String sourceId, String errorClass, String message) {}

        @Override
        public void paused(String sourceId) {}

        @Override
        public void skipped(String sourceId) {}
      };

  /** The poll completed (a Pub/Sub response or keepalive arrived). */
  void ok(String sourceId);

  /**
   * The poll failed.
   *
   * @param errorClass a short, stable name of the failure, e.g. {@code SoqlThrottledException} or a
   *     gRPC status code
   * @param message the human message (redacted by the recorder), may be null
   */
  void failed(String sourceId, String errorClass, String message);

  /** {@link #failed(String, String, String)} with the exception's simple class name and message. */
  default void failed(String sourceId, Throwable error) {
    failed(sourceId, error.getClass().getSimpleName(), error.getMessage());
  }

  /**
   * {@code message} as a source's failure log may show it (SPEC OBS-34, DOC-3): secrets masked by
   * {@link Redaction#forLog(String)}. The default knows no configured secret value and masks only
   * credential-looking parts; a recorder that knows the configuration's secrets (the daemon's
   * {@link SourceStatusBoard}) masks those too. Empty for null.
   */
  default String redact(String message) {
    return PATTERNS.forLog(message);
  }

  /**
   * {@code error} as a failure log's exception may show it (SPEC OBS-34): {@link
   * Redaction#forLog(Throwable)} with the same secrets as {@link #redact(String)}; null for null.
   */
  default Throwable redactError(Throwable error) {
    return PATTERNS.forLog(error);
  }

  /** A due poll made no call because the API reserve paused the polling sources (OBS-21). */
  void paused(String sourceId);

  /**
   * A due poll made no call for another reason: a neighbour's throttle deferred it (OBJ-12, ELF-15)
   * or type discovery was throttled (ELF-3).
   */
  void skipped(String sourceId);
}
