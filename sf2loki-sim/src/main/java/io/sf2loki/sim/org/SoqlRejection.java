package io.sf2loki.sim.org;

/** A query the simulated org refuses: answered with {@code status} and a Salesforce error body. */
final class SoqlRejection extends Exception {
  private static final long serialVersionUID = 1L;
  final int status;
  final String errorCode;

  SoqlRejection(int status, String errorCode, String message) {
    super(message, null, false, false);
    this.status = status;
    this.errorCode = errorCode;
  }
}
