package io.sf2loki.salesforce.pubsub;

/**
 * A topic reader's in-memory position (PS-11), shared by the reader and its current call so a call
 * that ends in any way leaves the position of the last entry it handed to the bridge. Touched by
 * the reader thread only.
 */
final class TopicPosition {
  private ReplayPosition position;

  ReplayPosition get() {
    return position;
  }

  void set(ReplayPosition p) {
    position = p;
  }
}
