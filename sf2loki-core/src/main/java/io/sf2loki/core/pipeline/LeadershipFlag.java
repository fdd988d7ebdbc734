package io.sf2loki.core.pipeline;

/**
 * Whether the term lost leadership (SPEC HA-4): set once by {@link Pipeline#loseLeadership()}, read
 * by consumers before every push. Thread-safe.
 */
final class LeadershipFlag {
  private volatile boolean lost;

  void markLost() {
    lost = true;
  }

  boolean lost() {
    return lost;
  }
}
