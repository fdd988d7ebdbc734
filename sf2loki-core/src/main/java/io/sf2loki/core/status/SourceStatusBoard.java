package io.sf2loki.core.status;

import io.sf2loki.core.pipeline.CommitListener;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The process-lifetime record of how each source last polled and when its position was last
 * committed (SPEC FEAT-3, OBS-35), read by {@code /statusz}. Keyed by source id = checkpoint key
 * (SPEC §3.3), so it is bounded by the configured and discovered sources (plus the other keys the
 * committer writes, which carry only a commit time). Written by the sources' poll paths through
 * {@link PollReporter} and by every term's committer through {@link CommitListener}; it outlives
 * terms, so a standby shows what it saw while it last led.
 *
 * <p>Thread-safe: one {@link ConcurrentHashMap} of immutable {@link SourceStatus} values, updated
 * per key with {@code compute}. Independent of telemetry (reads no meter). Times come from the
 * injected wall clock; messages pass through a {@link Redaction} before they are stored.
 */
public final class SourceStatusBoard implements PollReporter, CommitListener {
  /** How a poll ended. */
  public enum Kind {
    /** Completed. */
    OK,
    /** Failed; see {@link PollResult#errorClass()}. */
    ERROR,
    /** Not run: the API reserve paused the polling sources (OBS-21). */
    PAUSED,
    /** Not run for another reason (OBJ-12, ELF-3, ELF-15). */
    SKIPPED;

    /** Lower-case name, as shown on {@code /statusz}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The last poll result.
   *
   * @param kind how it ended
   * @param errorClass the failure's class for {@link Kind#ERROR}, else empty
   * @param at when it was reported (wall clock)
   */
  public record PollResult(Kind kind, String errorClass, Instant at) {}

  /**
   * The last failure.
   *
   * @param errorClass the failure's class
   * @param message redacted, one line, at most {@value Redaction#MAX_CHARS} chars
   * @param at when it was reported (wall clock)
   */
  public record LastError(String errorClass, String message, Instant at) {}

  /**
   * What is known about one source id.
   *
   * @param lastPoll the last poll result, empty before the first report
   * @param lastCommitAt when this process last committed the id's checkpoint (wall clock)
   * @param lastError the last failure, kept after later successes
   */
  public record SourceStatus(
      Optional<PollResult> lastPoll,
      Optional<Instant> lastCommitAt,
      Optional<LastError> lastError) {
    static final SourceStatus EMPTY =
        new SourceStatus(Optional.empty(), Optional.empty(), Optional.empty());

    SourceStatus withPoll(PollResult r) {
      return new SourceStatus(Optional.of(r), lastCommitAt, lastError);
    }
  }

  private final InstantSource wall;
  private final Redaction redaction;
  private final Map<String, SourceStatus> byId = new ConcurrentHashMap<>();

  /**
   * @param wall the wall clock that stamps reports and commits
   * @param redaction applied to every error message before it is stored
   */
  public SourceStatusBoard(InstantSource wall, Redaction redaction) {
    this.wall = Objects.requireNonNull(wall, "wall");
    this.redaction = Objects.requireNonNull(redaction, "redaction");
  }

  @Override
  public void ok(String sourceId) {
    poll(sourceId, Kind.OK, "");
  }

  @Override
  public void failed(String sourceId, String errorClass, String message) {
    Instant now = wall.instant();
    String cls = errorClass == null || errorClass.isBlank() ? "error" : errorClass;
    LastError e = new LastError(cls, redaction.apply(message), now);
    byId.compute(
        sourceId,
        (k, old) -> {
          SourceStatus s = old == null ? SourceStatus.EMPTY : old;
          return new SourceStatus(
              Optional.of(new PollResult(Kind.ERROR, cls, now)), s.lastCommitAt(), Optional.of(e));
        });
  }

  /** Masks the configuration's secret values and credential-looking parts (OBS-34, DOC-3). */
  @Override
  public String redact(String message) {
    return redaction.forLog(message);
  }

  /** Masks the configuration's secrets in a logged exception's cause chain (OBS-34). */
  @Override
  public Throwable redactError(Throwable error) {
    return redaction.forLog(error);
  }

  @Override
  public void paused(String sourceId) {
    poll(sourceId, Kind.PAUSED, "");
  }

  @Override
  public void skipped(String sourceId) {
    poll(sourceId, Kind.SKIPPED, "");
  }

  private void poll(String sourceId, Kind kind, String errorClass) {
    PollResult r = new PollResult(kind, errorClass, wall.instant());
    byId.compute(sourceId, (k, old) -> (old == null ? SourceStatus.EMPTY : old).withPoll(r));
  }

  /** Stamps the commit time of every written key (PIPE-9: after the store write succeeded). */
  @Override
  public void committed(Map<String, String> written) {
    Optional<Instant> now = Optional.of(wall.instant());
    for (String key : written.keySet()) {
      byId.compute(
          key,
          (k, old) -> {
            SourceStatus s = old == null ? SourceStatus.EMPTY : old;
            return new SourceStatus(s.lastPoll(), now, s.lastError());
          });
    }
  }

  /** What is known about {@code sourceId}; empty fields where nothing was reported. */
  public SourceStatus get(String sourceId) {
    return byId.getOrDefault(sourceId, SourceStatus.EMPTY);
  }

  /** The ids that reported at least one poll result, sorted (discovered sources included). */
  public java.util.List<String> polledIds() {
    TreeSet<String> out = new TreeSet<>();
    byId.forEach(
        (k, v) -> {
          if (v.lastPoll().isPresent()) {
            out.add(k);
          }
        });
    return java.util.List.copyOf(out);
  }
}
