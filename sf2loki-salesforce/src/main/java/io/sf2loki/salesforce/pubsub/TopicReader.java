package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.Channel;
import io.grpc.Status;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.Backoff;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.pubsub.SubscribeCall.End;
import io.sf2loki.salesforce.pubsub.SubscribeCall.Kind;
import io.sf2loki.salesforce.source.SourceTransforms;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One topic's subscription loop for one term (SPEC PS-2, PS-3, PS-6…PS-16). Built per {@link
 * TopicRunner#run} call by {@link TopicReaders}; {@link #run()} returns only when the stop signal
 * fires.
 *
 * <p>Threading: the calling thread does all the work. gRPC callbacks only append to a per-call
 * inbox; inbound flow control is manual (one response requested at a time), so a reader blocked on
 * a full bridge stops reading responses and sending credits (PS-18).
 *
 * <p>Per call: fresh PS-2 metadata; first {@code FetchRequest{topic_name, replay_preset, replay_id
 * (CUSTOM only), num_requested=n}}; after every response (keepalives included) a top-up {@code
 * FetchRequest{topic_name, num_requested = n − pending}} when {@code pending ≤ ⌊n/2⌋} and the
 * bridge has byte room, deferred until {@link BridgeWriter#onByteRoom} otherwise (PS-3). {@code
 * pending} is the server's {@code pending_num_requested} plus a top-up the server has not yet
 * accounted for (a response whose pending did not grow beyond {@code previous − events} was sent
 * before the server saw it; a keepalive or a grown pending acknowledges it), so at most n events
 * are ever requested while a top-up is in flight, and a credit the server dropped never stalls the
 * call.
 *
 * <p>Parts: this class owns the reader's lifecycle (start position, reconnects with backoff, the
 * PS-6/PS-14/PS-15 handling of a call's end); {@link SubscribeCall} is one call (the connection),
 * {@link Credits} its flow-control accounting and {@link TopicDecoding} the event decoding with its
 * failure memory across calls. All log under this class's logger.
 */
public final class TopicReader {
  /** The {@code source} label and metric attribute value. */
  public static final String SOURCE = "pubsub";

  private static final Logger log = LoggerFactory.getLogger(TopicReader.class);

  private final String topic;
  private final StopSignal stop;
  private final PubSubReaderSettings settings;
  private final PubSubCredentials credentials;
  private final ReplayStart replayStart;
  private final DiscardedReplayIds discarded;
  private final ReplayCommitTimes commitTimes;
  private final Sf2lokiMetrics metrics;
  private final Backoff backoff;
  private final ReaderContext ctx;
  private final TopicPosition position = new TopicPosition();
  private final TopicDecoding decoding;
  private final SubscribeCall.StopHook hook = new SubscribeCall.StopHook();
  private final Attributes topicAttrs;

  private int attempts;
  private PollReporter reporter = PollReporter.NONE;

  /**
   * @param topic the topic, e.g. {@code /event/LoginEventStream}
   * @param bridge the term's bridge (PS-17)
   * @param stop the reader's stop signal
   * @param settings the org's reader settings
   * @param channel the org's Pub/Sub channel (PS-1)
   * @param credentials token / org id for the PS-2 metadata
   * @param schemas the process-lifetime schema cache (PS-4)
   * @param cursors the stored checkpoints, read-only (read once at start, PS-12)
   * @param discarded the process-lifetime PS-15 registry
   * @param commitTimes when this process committed each topic's replay id (the age in the PS-15
   *     ERROR)
   * @param undecodable the process-lifetime PS-6 readiness registry
   * @param metrics the instance's metrics
   * @param time ticker (watchdog, SRC-26) and sleeper (backoff)
   * @param serverNow the org's server-now clock (SRC-20) for timestamp fallbacks
   * @param random jitter source (PS-14)
   * @param transforms the source's compiled transforms (XF-1)
   * @param cpu the CPU pool that decodes, transforms and shapes events (PIPE-26)
   */
  TopicReader(
      String topic,
      BridgeWriter bridge,
      StopSignal stop,
      PubSubReaderSettings settings,
      Channel channel,
      PubSubCredentials credentials,
      SchemaCache schemas,
      io.sf2loki.salesforce.source.CursorReader cursors,
      DiscardedReplayIds discarded,
      ReplayCommitTimes commitTimes,
      UndecodableTopics undecodable,
      Sf2lokiMetrics metrics,
      TimeSource time,
      InstantSource serverNow,
      RandomGenerator random,
      SourceTransforms transforms,
      Executor cpu) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.stop = Objects.requireNonNull(stop, "stop");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.discarded = Objects.requireNonNull(discarded, "discarded");
    this.commitTimes = Objects.requireNonNull(commitTimes, "commitTimes");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(time, "time");
    this.replayStart = new ReplayStart(cursors, discarded, metrics);
    this.backoff =
        new Backoff(settings.backoffInitial(), settings.backoffMax(), time.sleeper(), random);
    PubSubEntryShaper shaper =
        new PubSubEntryShaper(
            topic,
            new StructuredMetadataExtractor(settings.structuredMetadataFields()),
            settings.sampleRates().applyAsDouble(topic),
            metrics,
            serverNow,
            transforms);
    this.topicAttrs = Attributes.of(Sf2lokiMetrics.TOPIC, topic);
    this.ctx =
        new ReaderContext(
            topic,
            settings,
            Objects.requireNonNull(channel, "channel"),
            credentials,
            Objects.requireNonNull(bridge, "bridge"),
            stop,
            metrics,
            time,
            shaper,
            topicAttrs,
            Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.OBJECT, topic));
    this.decoding =
        new TopicDecoding(
            ctx,
            Objects.requireNonNull(schemas, "schemas"),
            Objects.requireNonNull(undecodable, "undecodable"),
            position,
            Objects.requireNonNull(cpu, "cpu"));
  }

  /**
   * Runs until the stop signal fires (PS-16). Errors never escape.
   *
   * @throws InterruptedException if the thread is interrupted
   */
  public void run() throws InterruptedException {
    stop.onStop(hook::fire);
    try {
      Optional<ReplayStart.Stored> stored = replayStart.load(topic, backoff, stop, reporter);
      if (stored.isEmpty()) {
        return;
      }
      position.set(
          ReplayStart.startPosition(
              stored.get(), settings.replayPreset(), settings.onInvalidReplay()));
      log.atInfo()
          .addKeyValue("topic", topic)
          .addKeyValue("start", position.get().toString())
          .log("pubsub topic reader starting");
      while (!stop.isStopped()) {
        if (attempts++ > 0) {
          metrics.pubsubReconnects.add(1, topicAttrs);
        }
        End end;
        try {
          end = new SubscribeCall(ctx, discarded, decoding, position, reporter, hook).run();
        } catch (RuntimeException e) {
          log.atWarn()
              .addKeyValue("topic", topic)
              .addKeyValue("error", reporter.redact(e.toString()))
              .log("pubsub topic reader failed unexpectedly; reconnecting");
          end = new End(Kind.TRANSPORT, false, null, null, null);
        }
        if (!afterCall(end)) {
          return;
        }
      }
    } finally {
      hook.clear();
      metrics.pubsubStreamUp.set(0, topicAttrs);
      metrics.pubsubPendingCredits.set(0, topicAttrs);
      decoding.releaseAtEnd();
    }
  }

  /** Reports each response ({@code ok}) and each failed call to {@code r} (FEAT-3); before run. */
  TopicReader reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
    return this;
  }

  /** The current in-memory position (PS-11), for tests and diagnostics. */
  ReplayPosition position() {
    return position.get();
  }

  // ---------------------------------------------------------------------------------------------
  // call outcomes (PS-6, PS-8, PS-14, PS-15)

  /** Handles a call end; false when the reader must return (stop fired). */
  private boolean afterCall(End end) throws InterruptedException {
    if (stop.isStopped() || end.kind() == Kind.STOPPED) {
      return false;
    }
    if (end.delivered()) {
      backoff.reset();
    }
    if (end.kind() != Kind.COMPLETED) { // FEAT-3: the gRPC code, or the reader's own reason
      reporter.failed(
          PubSubTopics.checkpointKey(topic),
          end.status() == null
              ? end.kind().name().toLowerCase(Locale.ROOT)
              : end.status().getCode().name(),
          end.status() == null ? "stream ended: " + end.kind() : end.status().getDescription());
    }
    switch (end.kind()) {
      case COMPLETED -> {
        log.atInfo().addKeyValue("topic", topic).log("pubsub stream ended by the server");
        backoff.reset();
        return backoff.pause(stop);
      }
      case CLOSED -> {
        return afterStatus(end);
      }
      default -> {
        return backoff.pause(stop);
      }
    }
  }

  private boolean afterStatus(End end) throws InterruptedException {
    Status status = end.status();
    List<String> trailers = ReplayErrorClassifier.trailerValues(end.trailers());
    if (ReplayErrorClassifier.isAuthError(status.getCode(), trailers) && end.call() != null) {
      credentials.invalidate(end.call().token());
    }
    ReplayErrorClassifier.Action action =
        ReplayErrorClassifier.classify(status.getCode(), trailers, position.get().resuming());
    String traceId = end.call() == null ? "" : end.call().traceId();
    String errorCode = String.join(",", trailers);
    switch (action) {
      case FALLBACK -> {
        fallback(status, errorCode, traceId);
        return !stop.isStopped();
      }
      case REAUTHENTICATE ->
          log.atWarn()
              .addKeyValue("topic", topic)
              .addKeyValue("status", status.getCode())
              .addKeyValue("error_code", errorCode)
              .addKeyValue("x_client_trace_id", traceId)
              .log("pubsub call unauthenticated; token invalidated, resubscribing");
      case REJECTED_NOT_RESUMING, INVALID_ARGUMENT_KEEP_POSITION ->
          log.atError()
              .addKeyValue("topic", topic)
              .addKeyValue("status", status.getCode())
              .addKeyValue("description", reporter.redact(status.getDescription()))
              .addKeyValue("error_code", errorCode)
              .addKeyValue("start", position.get().toString())
              .addKeyValue("x_client_trace_id", traceId)
              .log("pubsub subscription rejected; retrying");
      case LIKELY_CONFIGURATION_ERROR ->
          log.atError()
              .addKeyValue("topic", topic)
              .addKeyValue("status", status.getCode())
              .addKeyValue("description", reporter.redact(status.getDescription()))
              .addKeyValue("error_code", errorCode)
              .addKeyValue("x_client_trace_id", traceId)
              .log("pubsub subscription rejected: likely configuration error");
      case RETRY ->
          log.atWarn()
              .addKeyValue("topic", topic)
              .addKeyValue("endpoint", ctx.channel().authority())
              .addKeyValue("status", status.getCode())
              .addKeyValue(
                  "description",
                  reporter.redact(TransportDiagnostics.firstLine(status.getDescription())))
              .addKeyValue(
                  "error", reporter.redact(TransportDiagnostics.rootCause(status.getCause())))
              .addKeyValue(
                  "hint",
                  TransportDiagnostics.transportHint(status.getCause(), status.getDescription()))
              .addKeyValue("error_code", errorCode)
              .addKeyValue("x_client_trace_id", traceId)
              .log("pubsub stream failed; reconnecting");
    }
    return backoff.pause(stop);
  }

  /** PS-15 fallback: discard the id, resubscribe with {@code on_invalid_replay}. */
  private void fallback(Status status, String errorCode, String traceId) {
    ByteString rejected = position.get().replayId();
    discarded.discard(topic, rejected);
    ReplayPreset preset = settings.onInvalidReplay();
    metrics.pubsubReplayFallbacks.add(1, topicAttrs);
    log.atError()
        .addKeyValue("topic", topic)
        .addKeyValue("replay_id", ReplayPosition.base64(rejected))
        .addKeyValue(
            "age",
            commitTimes
                .age(topic, ReplayPosition.base64(rejected))
                .map(java.time.Duration::toString)
                .orElse("unknown (not committed by this process)"))
        .addKeyValue("status", status.getCode())
        .addKeyValue("error_code", errorCode)
        .addKeyValue("fallback", preset.name())
        .addKeyValue(
            "possible_gap",
            preset == ReplayPreset.EARLIEST
                ? "events after the rejected id that left the retention window are lost;"
                    + " retained ones are replayed"
                : "events between the rejected id and now are skipped")
        .addKeyValue("x_client_trace_id", traceId)
        .log("replay id rejected");
    position.set(ReplayPosition.of(preset));
  }
}
