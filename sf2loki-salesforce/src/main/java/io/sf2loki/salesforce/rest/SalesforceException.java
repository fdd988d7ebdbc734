package io.sf2loki.salesforce.rest;

/**
 * Base of expected Salesforce failures (SPEC SRC-17): carries the HTTP status (0 for transport
 * failures), the Salesforce {@code errorCode} when the body had one, and a body excerpt. Messages
 * never contain tokens or secrets (AUTH-10).
 */
public class SalesforceException extends Exception {
  private final int status;
  private final String errorCode;

  public SalesforceException(String message, int status, String errorCode, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.errorCode = errorCode;
  }

  /** HTTP status, or 0 for a transport failure or timeout. */
  public int status() {
    return status;
  }

  /** Salesforce error code (e.g. {@code INVALID_FIELD}), or null. */
  public String errorCode() {
    return errorCode;
  }

  /** Whether this was a transport failure or timeout (no HTTP status). */
  public boolean isTransport() {
    return status == 0;
  }
}
