package io.sf2loki.salesforce.rest;

/** HTTP 400 {@code INVALID_FIELD}: the query names a field the org/user cannot see (ELF-5). */
public final class InvalidFieldException extends SoqlException {
  public InvalidFieldException(String message) {
    super(message, 400, "INVALID_FIELD", null);
  }
}
