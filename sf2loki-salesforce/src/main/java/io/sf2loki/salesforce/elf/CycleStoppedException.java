package io.sf2loki.salesforce.elf;

/** The cycle's hand-off closed while a worker waited on it (stop, or the emitter refused). */
final class CycleStoppedException extends Exception {
  private static final long serialVersionUID = 1L;

  CycleStoppedException() {
    super("cycle stopped", null, false, false);
  }
}
