package io.sf2loki.sim.org;

/** A query the simulated org refuses: answered with {@code status} and a Salesforce error body. */
final class SoqlRejection extends Exception {
  private static final long serialVersionUID = 1L;
  final int status;
  final String errorCode;

  /** The column an {@code INVALID_FIELD} rejection names (as written in the query), or null. */
  final String field;

  SoqlRejection(int status, String errorCode, String message) {
    this(status, errorCode, message, null);
  }

  SoqlRejection(int status, String errorCode, String message, String field) {
    super(message, null, false, false);
    this.status = status;
    this.errorCode = errorCode;
    this.field = field;
  }
}
