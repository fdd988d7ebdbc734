package io.sf2loki.salesforce.rest;

/** HTTP 403 {@code REQUEST_LIMIT_EXCEEDED} on a query: the org's API limit is spent (SRC-17). */
public final class SoqlThrottledException extends SoqlException {
  public SoqlThrottledException(String message) {
    super(message, 403, "REQUEST_LIMIT_EXCEEDED", null);
  }
}
