package io.sf2loki.salesforce.rest;

/**
 * A 2xx download whose body is not the log (SPEC SRC-28): an HTML page, a content type that is
 * never a log or CSV, or a size outside the tolerance around {@code LogLength}/{@code
 * LogFileLength}. A transient download failure (ELF-12, APX-6) with metric reason {@code
 * invalid_body}; the body is never shipped.
 */
public final class InvalidBodyException extends DownloadException {
  /** What was wrong. */
  public enum Problem {
    /** {@code text/html}/{@code application/xhtml+xml}, or a body starting with an HTML tag. */
    HTML_PAGE,
    /** A content type that is never a log or CSV (JSON, XML). */
    CONTENT_TYPE,
    /** The decoded size is outside the tolerance around the expected size. */
    SIZE
  }

  /** The metric reason of every invalid body. */
  public static final String REASON = "invalid_body";

  private final Problem problem;
  private final String contentType;
  private final Long expectedBytes;
  private final long actualBytes;

  /**
   * @param status the 2xx status received
   * @param problem what was wrong
   * @param contentType the {@code Content-Type} header, or null when absent
   * @param expectedBytes {@code LogLength}/{@code LogFileLength}, or null when unknown
   * @param actualBytes decoded body size
   */
  public InvalidBodyException(
      int status, Problem problem, String contentType, Long expectedBytes, long actualBytes) {
    super(
        "invalid body: "
            + problem.name().toLowerCase(java.util.Locale.ROOT)
            + " (HTTP "
            + status
            + ", content type "
            + (contentType == null ? "absent" : contentType)
            + ", "
            + actualBytes
            + " bytes, expected "
            + (expectedBytes == null ? "unknown" : expectedBytes)
            + ")",
        status,
        null,
        null);
    this.problem = problem;
    this.contentType = contentType;
    this.expectedBytes = expectedBytes;
    this.actualBytes = actualBytes;
  }

  /** What was wrong. */
  public Problem problem() {
    return problem;
  }

  /**
   * Whether the answer is not a log at all (an HTML page or a non-log content type): it says
   * nothing about this particular log, so APX-6's consecutive-cycle skip does not count it.
   */
  public boolean notALog() {
    return problem != Problem.SIZE;
  }

  /** The {@code Content-Type} received, or null. */
  public String contentType() {
    return contentType;
  }

  /** The expected size in bytes, or null when Salesforce gave none. */
  public Long expectedBytes() {
    return expectedBytes;
  }

  /** The decoded body size in bytes. */
  public long actualBytes() {
    return actualBytes;
  }

  @Override
  public String reason() {
    return REASON;
  }
}
