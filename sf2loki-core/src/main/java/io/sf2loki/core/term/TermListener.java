package io.sf2loki.core.term;

/** Told about term transitions, e.g. to set readiness (OBS-8). Must not throw. */
public interface TermListener {
  /** A term started: readiness {@code ready}. */
  void termStarted();

  /** A term ended through leadership loss or demotion: readiness {@code standby}. */
  void standby();

  /** A listener that does nothing. */
  static TermListener none() {
    return new TermListener() {
      @Override
      public void termStarted() {}

      @Override
      public void standby() {}
    };
  }
}
