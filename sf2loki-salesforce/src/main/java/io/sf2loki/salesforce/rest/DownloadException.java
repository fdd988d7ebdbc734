package io.sf2loki.salesforce.rest;

/**
 * A body download (EventLogFile LogFile, ApexLog Body) failed (ELF-8, ELF-12, APX-6). {@link
 * #reason()} is the metric reason: {@code HTTP <code>} or {@code transport}.
 */
public class DownloadException extends SalesforceException {
  public DownloadException(String message, int status, String errorCode, Throwable cause) {
    super(message, status, errorCode, cause);
  }

  /** {@code HTTP <code>} or {@code transport}. */
  public String reason() {
    return isTransport() ? "transport" : "HTTP " + status();
  }
}
