package io.sf2loki.salesforce.rest;

/** A SOQL query failed: non-2xx status, transport failure, or malformed response (SRC-17). */
public class SoqlException extends SalesforceException {
  public SoqlException(String message, int status, String errorCode, Throwable cause) {
    super(message, status, errorCode, cause);
  }
}
