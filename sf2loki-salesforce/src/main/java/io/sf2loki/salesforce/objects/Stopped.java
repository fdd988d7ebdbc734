package io.sf2loki.salesforce.objects;

/** The emitter refused an entry or the stop signal fired mid-emission. */
final class Stopped extends Exception {
  private static final long serialVersionUID = 1L;

  Stopped() {
    super("stopped", null, false, false);
  }
}
