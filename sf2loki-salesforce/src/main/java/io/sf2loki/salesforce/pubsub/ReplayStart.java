package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.Backoff;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.source.CursorReader;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topic's starting position at term start (SPEC PS-12, PS-13).
 *
 * <p>Loads {@code pubsub:<topic>} from the checkpoint store, retrying a {@link StateException} with
 * the PS-14 backoff until it succeeds or {@code stop} fires (a store error never ends the topic).
 * The value is decoded leniently ({@link #decodeLenient}); a failing value logs ERROR, counts
 * {@code sf2loki_checkpoint_load_errors{source="pubsub"}} and is a <em>corrupt</em> id, as is a
 * stored id discarded earlier in this process by PS-15. Then the PS-13 table applies:
 *
 * <table>
 *   <caption>PS-13</caption>
 *   <tr><th>stored id</th><th>replay_preset</th><th>start</th></tr>
 *   <tr><td>present</td><td>any</td><td>CUSTOM + stored id</td></tr>
 *   <tr><td>absent</td><td>CUSTOM</td><td>LATEST</td></tr>
 *   <tr><td>corrupt</td><td>CUSTOM</td><td>on_invalid_replay</td></tr>
 *   <tr><td>absent or corrupt</td><td>LATEST / EARLIEST</td><td>that preset</td></tr>
 * </table>
 */
public final class ReplayStart {
  private static final Logger log = LoggerFactory.getLogger(ReplayStart.class);
  private static final Attributes PUBSUB = Attributes.of(Sf2lokiMetrics.SOURCE, TopicReader.SOURCE);

  /** What the store held for a topic. */
  public sealed interface Stored {}

  /** Never stored. */
  public record Absent() implements Stored {}

  /** Stored but unusable (undecodable, empty, or discarded by PS-15). */
  public record Corrupt() implements Stored {}

  /** A usable id. */
  public record Present(ByteString replayId) implements Stored {}

  private final CursorReader cursors;
  private final DiscardedReplayIds discarded;
  private final Sf2lokiMetrics metrics;

  /**
   * @param cursors the stored checkpoints, read-only (an org-prefixed view in multi-org, ORG-4); a
   *     load may throw {@link StateException}, which is retried
   * @param discarded the process-lifetime PS-15 registry
   * @param metrics the instance's metrics
   */
  public ReplayStart(CursorReader cursors, DiscardedReplayIds discarded, Sf2lokiMetrics metrics) {
    this.cursors = Objects.requireNonNull(cursors, "cursors");
    this.discarded = Objects.requireNonNull(discarded, "discarded");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Loads and classifies the stored id of {@code topic} (PS-12), retrying store errors.
   *
   * @param backoff the reader's backoff (PS-14) used between failed loads
   * @return the classification, or empty when {@code stop} fired first
   * @throws InterruptedException if interrupted
   */
  public Optional<Stored> load(String topic, Backoff backoff, StopSignal stop)
      throws InterruptedException {
    return load(topic, backoff, stop, PollReporter.NONE);
  }

  /**
   * {@link #load(String, Backoff, StopSignal)} whose store-failure WARN shows the error masked as
   * {@code redactor} masks it (SPEC OBS-34).
   *
   * @throws InterruptedException if interrupted
   */
  public Optional<Stored> load(
      String topic, Backoff backoff, StopSignal stop, PollReporter redactor)
      throws InterruptedException {
    String key = PubSubTopics.checkpointKey(topic);
    while (!stop.isStopped()) {
      Optional<String> raw;
      try {
        raw = cursors.load(key);
      } catch (StateException e) {
        log.atWarn()
            .addKeyValue("topic", topic)
            .addKeyValue("key", key)
            .addKeyValue("error", redactor.redact(e.getMessage()))
            .log("pubsub checkpoint load failed; retrying");
        if (!backoff.pause(stop)) {
          return Optional.empty();
        }
        continue;
      }
      backoff.reset();
      return Optional.of(classify(topic, key, raw));
    }
    return Optional.empty();
  }

  private Stored classify(String topic, String key, Optional<String> raw) {
    if (raw.isEmpty()) {
      return new Absent();
    }
    Optional<ByteString> id = decodeLenient(raw.get());
    if (id.isEmpty() || id.get().isEmpty()) {
      metrics.checkpointLoadErrors.add(1, PUBSUB);
      log.atError()
          .addKeyValue("topic", topic)
          .addKeyValue("key", key)
          .log("pubsub checkpoint value is not a valid base64 replay id");
      return new Corrupt();
    }
    if (discarded.isDiscarded(topic, id.get())) {
      log.atWarn()
          .addKeyValue("topic", topic)
          .addKeyValue("replay_id", ReplayPosition.base64(id.get()))
          .log("pubsub stored replay id was rejected earlier in this process; not resending it");
      return new Corrupt();
    }
    return new Present(id.get());
  }

  /**
   * PS-13: the position a topic subscribes with first.
   *
   * @param stored what {@link #load} found
   * @param preset {@code replay_preset}
   * @param onInvalid {@code on_invalid_replay} (EARLIEST or LATEST)
   */
  public static ReplayPosition startPosition(
      Stored stored, ReplayPreset preset, ReplayPreset onInvalid) {
    return switch (stored) {
      case Present p -> ReplayPosition.after(p.replayId());
      case Absent a ->
          ReplayPosition.of(preset == ReplayPreset.CUSTOM ? ReplayPreset.LATEST : preset);
      case Corrupt c -> ReplayPosition.of(preset == ReplayPreset.CUSTOM ? onInvalid : preset);
    };
  }

  /**
   * PS-12 lenient base64: characters outside the standard alphabet {@code A-Z a-z 0-9 + / =}
   * (including whitespace) are discarded; only an invalid length or padding fails.
   *
   * @return the bytes, or empty when the remaining characters are not valid base64
   */
  public static Optional<ByteString> decodeLenient(String value) {
    StringBuilder kept = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '+'
          || c == '/'
          || c == '=') {
        kept.append(c);
      }
    }
    if (kept.length() % 4 != 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(ByteString.copyFrom(Base64.getDecoder().decode(kept.toString())));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
