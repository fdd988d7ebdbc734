package io.sf2loki.salesforce.rest;

import java.util.List;
import java.util.Set;

/**
 * HTTP 400 {@code INVALID_FIELD}: the query names a field the org/user cannot see (ELF-5). {@link
 * #fields()} are the columns Salesforce named ({@code No such column '<name>'}), parsed from the
 * whole error body (SRC-27).
 */
public final class InvalidFieldException extends SoqlException {
  private final List<String> fields;

  /** From a message alone (fields parsed from it). */
  public InvalidFieldException(String message) {
    this(message, SalesforceErrorBody.columnsNamed(String.valueOf(message)), Set.of());
  }

  /**
   * @param message {@code HTTP 400: <excerpt>}
   * @param fields the columns named by the error body
   * @param errorCodes every code of the error body
   */
  public InvalidFieldException(String message, List<String> fields, Set<String> errorCodes) {
    super(message, 400, "INVALID_FIELD", errorCodes, null);
    this.fields = List.copyOf(fields);
  }

  /** Columns named {@code No such column '<name>'} by the body, in body order; may be empty. */
  public List<String> fields() {
    return fields;
  }
}
