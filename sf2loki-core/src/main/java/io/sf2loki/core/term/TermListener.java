package io.sf2loki.core.term;

/** Told about term transitions, e.g. to set readiness (OBS-8). Must not throw. */
public interface TermListener {
  /** A term started: readiness {@code ready}. */
  void termStarted();

  /** A term ended through leadership loss or demotion: readiness {@code standby}. */
  void standby();

  /**
   * A term ended, however it ended (loss, demotion, stop, finish, crash); called on the term thread
   * after its pipeline returned and before {@link #standby()}. Owners of leader-only work stop and
   * join it here (e.g. the org limits poller, OBS-12).
   */
  default void termEnded() {}

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
