package io.sf2loki.salesforce.rest;

/** HTTP 400 {@code MALFORMED_QUERY}: the SOQL text was rejected. */
public final class MalformedQueryException extends SoqlException {
  public MalformedQueryException(String message) {
    super(message, 400, "MALFORMED_QUERY", null);
  }
}
