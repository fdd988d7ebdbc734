package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.pipeline.CommitListener;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When this process last committed each topic's replay id (SPEC PS-15: the "replay id rejected"
 * ERROR names the rejected id's age "when known (time since this process committed it)"). Process
 * lifetime: registered as a commit listener of every term's pipeline, it keeps one (value, instant)
 * pair per {@code pubsub:<topic>} key — bounded by the number of topics. An id loaded from the
 * store but never committed by this process has no known age. Thread-safe.
 */
public final class ReplayCommitTimes implements CommitListener {
  private record Committed(String value, Instant at) {}

  private final InstantSource clock;
  private final Map<String, Committed> byKey = new ConcurrentHashMap<>();

  /**
   * @param clock the wall clock that stamps commits (the age is an interval between two wall
   *     instants, logged only)
   */
  public ReplayCommitTimes(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void committed(Map<String, String> written) {
    Instant now = clock.instant();
    written.forEach(
        (k, v) -> {
          if (k.startsWith(PubSubTopics.checkpointKey(""))) {
            byKey.put(k, new Committed(v, now));
          }
        });
  }

  /**
   * The age of {@code base64} as the committed position of {@code topic}.
   *
   * @param topic the topic name
   * @param base64 the replay id as stored (base64)
   * @return time since this process committed exactly that value, or empty when it did not (or a
   *     later value replaced it)
   */
  public Optional<Duration> age(String topic, String base64) {
    Committed c = byKey.get(PubSubTopics.checkpointKey(topic));
    if (c == null || !c.value().equals(base64)) {
      return Optional.empty();
    }
    Duration d = Duration.between(c.at(), clock.instant());
    return Optional.of(d.isNegative() ? Duration.ZERO : d);
  }
}
