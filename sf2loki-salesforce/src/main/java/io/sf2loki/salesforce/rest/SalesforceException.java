package io.sf2loki.salesforce.rest;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Base of expected Salesforce failures (SPEC SRC-17): carries the HTTP status (0 for transport
 * failures), the Salesforce {@code errorCode} the call is classified by ({@link
 * SalesforceErrorBody#primaryCode()}), every code of the error body (SRC-27), and a body excerpt in
 * the message. Messages never contain tokens or secrets (AUTH-10).
 */
public class SalesforceException extends Exception {
  private final int status;
  private final String errorCode;
  private final Set<String> errorCodes;

  public SalesforceException(String message, int status, String errorCode, Throwable cause) {
    this(message, status, errorCode, Set.of(), cause);
  }

  /**
   * @param errorCodes every code of the error body (SRC-27); {@code errorCode} is added when absent
   */
  public SalesforceException(
      String message, int status, String errorCode, Set<String> errorCodes, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.errorCode = errorCode;
    Set<String> all = new LinkedHashSet<>();
    if (errorCode != null) {
      all.add(errorCode);
    }
    all.addAll(errorCodes);
    this.errorCodes = Set.copyOf(all);
  }

  /** HTTP status, or 0 for a transport failure or timeout. */
  public int status() {
    return status;
  }

  /** Salesforce error code (e.g. {@code INVALID_FIELD}), or null. */
  public String errorCode() {
    return errorCode;
  }

  /** Every Salesforce error code of the whole error body (SRC-27), possibly empty. */
  public Set<String> errorCodes() {
    return errorCodes;
  }

  /** Whether the error body had {@code code} in any element (SRC-27). */
  public boolean hasErrorCode(String code) {
    return errorCodes.contains(code);
  }

  /** Whether this was a transport failure or timeout (no HTTP status). */
  public boolean isTransport() {
    return status == 0;
  }
}
