package io.sf2loki.loki;

import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.LokiResponses.Classification;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * State of one attempt of {@link LokiHttpSink}'s push of a batch (SINK-9…SINK-16); confined to the
 * pushing thread and dropped when the attempt returns. What must outlive the attempt is in {@link
 * #marks}, which the batch's delivery holds.
 */
final class SinkPush {
  final boolean singleAttempt;
  final BatchMarks marks;
  final boolean wholeBatch;
  final StopSignal stop;
  final Sink.Retries retries; // the caller's retry layer (PIPE-7, SINK-9)
  long bytes;

  /** True while the batch's restamped entries are pushed (SINK-13). */
  boolean restampPhase;

  SinkPush(
      boolean singleAttempt,
      BatchMarks marks,
      boolean wholeBatch,
      StopSignal stop,
      Sink.Retries retries) {
    this.stop = stop;
    this.retries = retries;
    this.singleAttempt = singleAttempt;
    this.marks = marks;
    this.wholeBatch = wholeBatch;
  }

  /**
   * One request's classified answer (SINK-8).
   *
   * @param status HTTP status (0 on a transport error)
   * @param body body text up to 64 KiB (SINK-8)
   * @param truncated whether the body was cut at 64 KiB
   * @param classification the SINK-8 row
   * @param bodyBytes request body bytes sent
   * @param unknownAtSend label sets without a high-water mark when the request was sent (SINK-16)
   * @param retryAfter the response's capped delta-seconds {@code Retry-After}, or zero
   */
  record Exchange(
      int status,
      String body,
      boolean truncated,
      Classification classification,
      int bodyBytes,
      Set<Map<String, String>> unknownAtSend,
      Duration retryAfter) {}
}
