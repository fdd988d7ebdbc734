package io.sf2loki.salesforce.apexlog;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadThrottledException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.InvalidBodyException;
import io.sf2loki.salesforce.rest.Spool;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches ApexLog bodies and classifies failures (SPEC APX-5, APX-6, SRC-28) for one {@link
 * ApexLogSource} term. Keeps APX-6's failure memory (the log failing in consecutive polls); an
 * answer that is not a log at all ({@link InvalidBodyException#notALog()}: an HTML page, a non-log
 * content type) stays a retried failure and does not count towards the skip — it says nothing about
 * that log. Not thread-safe: used by the polling thread only.
 */
final class ApexLogBodies {
  private static final Logger log = LoggerFactory.getLogger(ApexLogSource.class);

  enum Kind {
    OK,
    TOO_LARGE,
    SKIP,
    THROTTLED,
    FAILED
  }

  /**
   * @param kind the outcome
   * @param text the body for {@link Kind#OK}, else null
   */
  record Body(Kind kind, String text) {}

  private final ToolingApi api;
  private final Sf2lokiMetrics metrics;
  private final long maxBodyBytes;
  private String failingLogId;
  private int failingCycles;
  private PollReporter reporter = PollReporter.NONE;

  ApexLogBodies(ToolingApi api, Sf2lokiMetrics metrics, long maxBodyBytes) {
    this.api = Objects.requireNonNull(api, "api");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.maxBodyBytes = maxBodyBytes;
  }

  /** Masks secrets in failure logs as {@code r} does (OBS-34). Call before the first poll. */
  void reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
  }

  /** The log's entry was emitted: its failure memory ends. */
  void delivered(String id) {
    if (id.equals(failingLogId)) {
      failingLogId = null;
      failingCycles = 0;
    }
  }

  /** APX-5/APX-6: fetches one body, validated against {@code expected} (SRC-28). */
  Body fetch(String id, DownloadValidator.Expectation expected) throws InterruptedException {
    String path =
        "/services/data/v"
            + api.apiVersion()
            + "/tooling/sobjects/ApexLog/"
            + URLEncoder.encode(id, StandardCharsets.UTF_8)
            + "/Body";
    int status;
    String reason;
    String message;
    try (Spool spool = api.downloadBody(path, expected)) {
      long size = spool.sizeBytes();
      metrics.apexlogDownloadBytes.add(size);
      if (size > maxBodyBytes) {
        log.atWarn()
            .addKeyValue("source", ApexLogSource.SOURCE)
            .addKeyValue("log_id", id)
            .addKeyValue("body_bytes", size)
            .log(
                "apexlog body larger than max_body_bytes although LogLength was not; metadata only");
        return new Body(Kind.TOO_LARGE, null);
      }
      try (InputStream in = spool.open()) {
        return new Body(Kind.OK, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } catch (DownloadThrottledException e) {
      log.atError()
          .addKeyValue("source", ApexLogSource.SOURCE)
          .addKeyValue("log_id", id)
          .log(
              "apexlog body download throttled (REQUEST_LIMIT_EXCEEDED); poll ends before this log");
      return new Body(Kind.THROTTLED, null);
    } catch (InvalidBodyException e) {
      metrics.apexlogDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, e.reason()));
      log.atWarn()
          .addKeyValue("source", ApexLogSource.SOURCE)
          .addKeyValue("log_id", id)
          .addKeyValue("reason", e.reason())
          .addKeyValue("problem", e.problem())
          .addKeyValue("content_type", e.contentType())
          .addKeyValue("expected_bytes", e.expectedBytes())
          .addKeyValue("actual_bytes", e.actualBytes())
          .log("apexlog body is not the log; not shipped, poll ends before this log");
      if (e.notALog()) {
        return new Body(Kind.FAILED, null);
      }
      return afterTransient(id, e.reason(), e.getMessage(), false);
    } catch (DownloadException e) {
      status = e.status();
      reason = e.reason();
      message = e.getMessage();
    } catch (IOException e) {
      status = 0;
      reason = "transport";
      message = e.toString();
    }
    metrics.apexlogDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, reason));
    boolean permanent =
        status >= 400 && status < 500 && status != 401 && status != 403 && status != 429;
    if (permanent) {
      log.atError()
          .addKeyValue("source", ApexLogSource.SOURCE)
          .addKeyValue("log_id", id)
          .addKeyValue("reason", reason)
          .addKeyValue("error", reporter.redact(message))
          .log("apexlog body cannot be downloaded; shipping metadata only");
      return new Body(Kind.SKIP, null);
    }
    return afterTransient(id, reason, message, true);
  }

  /** APX-6: the third consecutive poll failing on the same log skips its body. */
  private Body afterTransient(String id, String reason, String message, boolean warn) {
    if (id.equals(failingLogId)) {
      failingCycles++;
    } else {
      failingLogId = id;
      failingCycles = 1;
    }
    if (failingCycles >= ApexLogSource.FAILING_CYCLES_BEFORE_SKIP) {
      log.atError()
          .addKeyValue("source", ApexLogSource.SOURCE)
          .addKeyValue("log_id", id)
          .addKeyValue("reason", reason)
          .addKeyValue("failing_cycles", failingCycles)
          .addKeyValue("error", reporter.redact(message))
          .log("apexlog body failed in consecutive polls; shipping metadata only");
      failingLogId = null;
      failingCycles = 0;
      return new Body(Kind.SKIP, null);
    }
    if (warn) {
      log.atWarn()
          .addKeyValue("source", ApexLogSource.SOURCE)
          .addKeyValue("log_id", id)
          .addKeyValue("reason", reason)
          .addKeyValue("failing_cycles", failingCycles)
          .addKeyValue("error", reporter.redact(message))
          .log("apexlog body download failed; poll ends before this log, retried next poll");
    }
    return new Body(Kind.FAILED, null);
  }
}
