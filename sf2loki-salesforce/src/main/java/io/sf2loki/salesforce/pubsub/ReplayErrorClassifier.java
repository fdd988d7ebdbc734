package io.sf2loki.salesforce.pubsub;

import io.grpc.Metadata;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The error classification of SPEC PS-15 as a pure function: the trailer first, the status second,
 * the first matching row wins. The watchdog, decode and schema rows (PS-6, PS-8) are not status
 * outcomes and are handled by the reader directly.
 */
public final class ReplayErrorClassifier {
  private ReplayErrorClassifier() {}

  /** What the reader does with a call that ended with a status (PS-15 table rows). */
  public enum Action {
    /** Rows 1 and 4: discard the id, resubscribe with {@code on_invalid_replay}; ERROR. */
    FALLBACK,
    /** Row 2: a rejection while not resuming: keep the preset, back off, retry; ERROR. */
    REJECTED_NOT_RESUMING,
    /** Row 3: invalidate the token used, back off, retry with a new mint; WARN. */
    REAUTHENTICATE,
    /** Row 5: INVALID_ARGUMENT while resuming with another trailer: keep position; ERROR. */
    INVALID_ARGUMENT_KEEP_POSITION,
    /** Row 6: INVALID_ARGUMENT while not resuming: back off, retry; ERROR "likely config". */
    LIKELY_CONFIGURATION_ERROR,
    /** Row 8: any other status or transport error: back off, retry; WARN. */
    RETRY
  }

  private static final List<String> REPLAY_CODES =
      List.of("replayid.corrupted", "replayid.validation.failed");
  private static final String AUTH_CODE = "auth.error";

  /**
   * Classifies a call end.
   *
   * @param code the gRPC status code of the call
   * @param trailers the PS-15 "trailer" values: the {@code error-code} trailer and every other
   *     response trailer except {@code grpc-*} keys (see {@link #trailerValues}); empty = no
   *     trailer at all
   * @param resuming whether the call started with CUSTOM and a non-empty id
   * @return the first matching row's action
   */
  public static Action classify(Status.Code code, Collection<String> trailers, boolean resuming) {
    boolean replayCode = containsAny(trailers, REPLAY_CODES);
    if (replayCode) {
      return resuming ? Action.FALLBACK : Action.REJECTED_NOT_RESUMING;
    }
    if (code == Status.Code.UNAUTHENTICATED || containsAny(trailers, List.of(AUTH_CODE))) {
      return Action.REAUTHENTICATE;
    }
    if (code == Status.Code.INVALID_ARGUMENT) {
      if (!resuming) {
        return Action.LIKELY_CONFIGURATION_ERROR;
      }
      return trailers.isEmpty() ? Action.FALLBACK : Action.INVALID_ARGUMENT_KEEP_POSITION;
    }
    return Action.RETRY;
  }

  /** PS-2 / AUTH-6: status UNAUTHENTICATED or a trailer containing {@code auth.error}. */
  public static boolean isAuthError(Status.Code code, Collection<String> trailers) {
    return code == Status.Code.UNAUTHENTICATED || containsAny(trailers, List.of(AUTH_CODE));
  }

  private static final java.util.Set<String> TRANSPORT_HEADERS =
      java.util.Set.of("content-type", "te", "user-agent", "date", "server");

  /**
   * The PS-15 "trailer": the values of every ASCII trailer key except {@code grpc-*} keys and the
   * HTTP/2 transport headers that grpc-java merges into the trailers of a trailers-only response
   * ({@code content-type}, {@code :status}, …; otherwise a bare {@code INVALID_ARGUMENT} rejection
   * of a stored id would look like "a trailer without those codes" and retry the same id forever),
   * and binary {@code -bin} keys (not text), in key order.
   *
   * @param trailers the response trailers, may be null
   */
  public static List<String> trailerValues(Metadata trailers) {
    List<String> out = new ArrayList<>();
    if (trailers == null) {
      return out;
    }
    for (String key : trailers.keys()) {
      String k = key.toLowerCase(Locale.ROOT);
      if (k.startsWith("grpc-")
          || k.startsWith(":")
          || TRANSPORT_HEADERS.contains(k)
          || k.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
        continue;
      }
      Iterable<String> values =
          trailers.getAll(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER));
      if (values != null) {
        values.forEach(out::add);
      }
    }
    return out;
  }

  private static boolean containsAny(Collection<String> values, List<String> needles) {
    for (String v : values) {
      String lower = v.toLowerCase(Locale.ROOT);
      for (String n : needles) {
        if (lower.contains(n)) {
          return true;
        }
      }
    }
    return false;
  }
}
