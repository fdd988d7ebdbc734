package io.sf2loki.core.pipeline;

import java.util.Map;

/** Notified after a checkpoint write succeeded (PIPE-10 gauges). Must not throw. */
@FunctionalInterface
public interface CommitListener {
  /**
   * @param written key → value of the keys written (abandoned keys excluded)
   */
  void committed(Map<String, String> written);

  /** A listener that does nothing. */
  static CommitListener none() {
    return written -> {};
  }
}
