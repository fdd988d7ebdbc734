package io.sf2loki.salesforce.rest;

/**
 * A 2xx response whose body is not a JSON object with a {@code records} array (SRC-17 "malformed
 * response"); handled like any other poll error, never a crash.
 */
public final class MalformedResponseException extends SoqlException {
  public MalformedResponseException(String message, int status) {
    super(message, status, null, null);
  }
}
