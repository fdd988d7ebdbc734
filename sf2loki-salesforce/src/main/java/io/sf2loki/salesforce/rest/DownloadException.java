package io.sf2loki.salesforce.rest;

import java.util.Set;

/**
 * A body download (EventLogFile LogFile, ApexLog Body) failed (ELF-8, ELF-12, APX-6). {@link
 * #reason()} is the metric reason: {@code HTTP <code>}, {@code transport} or, for a 2xx body that
 * is not the log ({@link InvalidBodyException}), {@code invalid_body}.
 */
public class DownloadException extends SalesforceException {
  public DownloadException(String message, int status, String errorCode, Throwable cause) {
    super(message, status, errorCode, cause);
  }

  /** With every code of the error body (SRC-27). */
  public DownloadException(
      String message, int status, String errorCode, Set<String> errorCodes, Throwable cause) {
    super(message, status, errorCode, errorCodes, cause);
  }

  /** {@code HTTP <code>} or {@code transport}. */
  public String reason() {
    return isTransport() ? "transport" : "HTTP " + status();
  }
}
