package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Process-lifetime registry of the replay ids discarded by a PS-15 fallback (SPEC PS-13, PS-15,
 * PIPE-20): a discarded id is never sent again by this process, and a later term that loads it from
 * the store starts directly with the fallback preset, so each stored id gets at most one fallback.
 * Keyed per topic (the same bytes on two topics are different positions). Thread-safe.
 */
public final class DiscardedReplayIds {
  private final Set<String> discarded = ConcurrentHashMap.newKeySet();

  /** Records that {@code replayId} of {@code topic} was rejected and discarded. */
  public void discard(String topic, ByteString replayId) {
    discarded.add(key(topic, replayId));
  }

  /** Whether {@code replayId} of {@code topic} was discarded earlier in this process. */
  public boolean isDiscarded(String topic, ByteString replayId) {
    return !replayId.isEmpty() && discarded.contains(key(topic, replayId));
  }

  private static String key(String topic, ByteString replayId) {
    return topic + "\n" + ReplayPosition.base64(replayId);
  }
}
