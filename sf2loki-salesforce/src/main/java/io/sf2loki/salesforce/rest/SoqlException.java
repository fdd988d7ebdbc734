package io.sf2loki.salesforce.rest;

import java.util.Set;

/** A SOQL query failed: non-2xx status, transport failure, or malformed response (SRC-17). */
public class SoqlException extends SalesforceException {
  public SoqlException(String message, int status, String errorCode, Throwable cause) {
    super(message, status, errorCode, cause);
  }

  /** With every code of the error body (SRC-27). */
  public SoqlException(
      String message, int status, String errorCode, Set<String> errorCodes, Throwable cause) {
    super(message, status, errorCode, errorCodes, cause);
  }
}
