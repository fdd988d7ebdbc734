package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.Channel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.source.Backoff;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import org.apache.avro.Schema;
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
 */
public final class TopicReader {
  /** The {@code source} label and metric attribute value. */
  public static final String SOURCE = "pubsub";

  private static final Logger log = LoggerFactory.getLogger(TopicReader.class);

  private final String topic;
  private final BridgeWriter bridge;
  private final StopSignal stop;
  private final PubSubReaderSettings settings;
  private final Channel channel;
  private final PubSubCredentials credentials;
  private final SchemaCache schemas;
  private final AvroEventDecoder decoder = new AvroEventDecoder();
  private final ReplayStart replayStart;
  private final DiscardedReplayIds discarded;
  private final ReplayCommitTimes commitTimes;
  private final UndecodableTopics undecodable;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final Backoff backoff;
  private final PubSubEntryShaper shaper;
  private final Attributes topicAttrs;
  private final Attributes progressAttrs;
  private final AtomicReference<BlockingQueue<Signal>> currentInbox = new AtomicReference<>();

  private ReplayPosition position;
  private int attempts;
  private ByteString failingId;
  private int failingConnections;
  private int decodeEndedConnections;
  private int schemaFailures;
  private boolean held;
  private PollReporter reporter = PollReporter.NONE;

  /**
   * @param topic the topic, e.g. {@code /event/LoginEventStream}
   * @param bridge the term's bridge (PS-17)
   * @param stop the reader's stop signal
   * @param settings the org's reader settings
   * @param channel the org's Pub/Sub channel (PS-1)
   * @param credentials token / org id for the PS-2 metadata
   * @param schemas the process-lifetime schema cache (PS-4)
   * @param store the checkpoint store (read once at start, PS-12)
   * @param discarded the process-lifetime PS-15 registry
   * @param commitTimes when this process committed each topic's replay id (the age in the PS-15
   *     ERROR)
   * @param undecodable the process-lifetime PS-6 readiness registry
   * @param metrics the instance's metrics
   * @param time ticker (watchdog, SRC-26) and sleeper (backoff)
   * @param serverNow the org's server-now clock (SRC-20) for timestamp fallbacks
   * @param random jitter source (PS-14)
   */
  TopicReader(
      String topic,
      BridgeWriter bridge,
      StopSignal stop,
      PubSubReaderSettings settings,
      Channel channel,
      PubSubCredentials credentials,
      SchemaCache schemas,
      io.sf2loki.core.spi.CheckpointStore store,
      DiscardedReplayIds discarded,
      ReplayCommitTimes commitTimes,
      UndecodableTopics undecodable,
      Sf2lokiMetrics metrics,
      TimeSource time,
      InstantSource serverNow,
      RandomGenerator random) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.bridge = Objects.requireNonNull(bridge, "bridge");
    this.stop = Objects.requireNonNull(stop, "stop");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.schemas = Objects.requireNonNull(schemas, "schemas");
    this.discarded = Objects.requireNonNull(discarded, "discarded");
    this.commitTimes = Objects.requireNonNull(commitTimes, "commitTimes");
    this.undecodable = Objects.requireNonNull(undecodable, "undecodable");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.time = Objects.requireNonNull(time, "time");
    this.replayStart = new ReplayStart(store, discarded, metrics);
    this.backoff =
        new Backoff(settings.backoffInitial(), settings.backoffMax(), time.sleeper(), random);
    this.shaper =
        new PubSubEntryShaper(
            topic,
            new StructuredMetadataExtractor(settings.structuredMetadataFields()),
            settings.sampleRates().applyAsDouble(topic),
            metrics,
            serverNow);
    this.topicAttrs = Attributes.of(Sf2lokiMetrics.TOPIC, topic);
    this.progressAttrs = Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.OBJECT, topic);
  }

  /**
   * Runs until the stop signal fires (PS-16). Errors never escape.
   *
   * @throws InterruptedException if the thread is interrupted
   */
  public void run() throws InterruptedException {
    stop.onStop(
        () -> {
          BlockingQueue<Signal> q = currentInbox.get();
          if (q != null) {
            q.add(Signal.Stop.INSTANCE);
          }
        });
    try {
      Optional<ReplayStart.Stored> stored = replayStart.load(topic, backoff, stop);
      if (stored.isEmpty()) {
        return;
      }
      position =
          ReplayStart.startPosition(
              stored.get(), settings.replayPreset(), settings.onInvalidReplay());
      log.atInfo()
          .addKeyValue("topic", topic)
          .addKeyValue("start", position.toString())
          .log("pubsub topic reader starting");
      while (!stop.isStopped()) {
        if (attempts++ > 0) {
          metrics.pubsubReconnects.add(1, topicAttrs);
        }
        End end;
        try {
          end = new Connection().run();
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
      currentInbox.set(null);
      metrics.pubsubStreamUp.set(0, topicAttrs);
      metrics.pubsubPendingCredits.set(0, topicAttrs);
      if (held) {
        undecodable.release(topic);
      }
    }
  }

  /** Reports each response ({@code ok}) and each failed call to {@code r} (FEAT-3); before run. */
  TopicReader reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
    return this;
  }

  /** The current in-memory position (PS-11), for tests and diagnostics. */
  ReplayPosition position() {
    return position;
  }

  // ---------------------------------------------------------------------------------------------
  // call outcomes (PS-6, PS-8, PS-14, PS-15)

  private enum Kind {
    STOPPED,
    COMPLETED,
    CLOSED,
    STALLED,
    DECODE_FAILED,
    SCHEMA_FAILED,
    NO_CREDENTIALS,
    TRANSPORT
  }

  private record End(
      Kind kind, boolean delivered, Status status, Metadata trailers, PubSubCallMetadata call) {}

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
        ReplayErrorClassifier.classify(status.getCode(), trailers, position.resuming());
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
              .addKeyValue("start", position.toString())
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
              .addKeyValue("endpoint", channel.authority())
              .addKeyValue("status", status.getCode())
              .addKeyValue("description", reporter.redact(firstLine(status.getDescription())))
              .addKeyValue("error", reporter.redact(rootCause(status.getCause())))
              .addKeyValue("hint", transportHint(status.getCause(), status.getDescription()))
              .addKeyValue("error_code", errorCode)
              .addKeyValue("x_client_trace_id", traceId)
              .log("pubsub stream failed; reconnecting");
    }
    return backoff.pause(stop);
  }

  /**
   * A cache miss: fetches the schema inside a gRPC context that the reader's stop cancels, so a
   * hanging {@code GetSchema} (30 s deadline) does not hold a stopping term (PS-16).
   */
  private Schema fetchSchema(String schemaId)
      throws SchemaCache.SchemaFetchException, InterruptedException {
    io.grpc.Context.CancellableContext ctx = io.grpc.Context.current().withCancellation();
    stop.onStop(() -> ctx.cancel(null));
    try {
      return ctx.call(() -> schemas.get(schemaId));
    } catch (SchemaCache.SchemaFetchException | InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new SchemaCache.SchemaFetchException("schema " + schemaId + " cannot be fetched", e);
    } finally {
      ctx.cancel(null);
    }
  }

  /** The first line of a status description (netty appends its pipeline on further lines). */
  static String firstLine(String description) {
    if (description == null) {
      return "";
    }
    int nl = description.indexOf('\n');
    return nl < 0 ? description : description.substring(0, nl);
  }

  /** {@code SimpleName: message} of the innermost cause, or "" without one. */
  static String rootCause(Throwable t) {
    if (t == null) {
      return "";
    }
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName()
        + (root.getMessage() == null ? "" : ": " + firstLine(root.getMessage()));
  }

  /** A hint for the usual transport misconfigurations, or "" (PS-1). */
  static String transportHint(Throwable t, String description) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String n = c.getClass().getName();
      if (n.contains("Ssl") || n.startsWith("javax.net.ssl")) {
        return "TLS handshake failed: is the endpoint plaintext (sources.pubsub.tls: false) or"
            + " not a Pub/Sub API endpoint?";
      }
      if (c instanceof java.net.UnknownHostException) {
        return "the endpoint host does not resolve (sources.pubsub.endpoint)";
      }
      if (c instanceof java.net.ConnectException) {
        return "nothing accepts connections at sources.pubsub.endpoint";
      }
    }
    if (description != null && description.contains("SslHandler")) {
      return "TLS handshake failed: is the endpoint plaintext (sources.pubsub.tls: false)?";
    }
    return "";
  }

  /** PS-15 fallback: discard the id, resubscribe with {@code on_invalid_replay}. */
  private void fallback(Status status, String errorCode, String traceId) {
    ByteString rejected = position.replayId();
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
    position = ReplayPosition.of(preset);
  }

  // ---------------------------------------------------------------------------------------------
  // one Subscribe call

  private sealed interface Signal {
    record Response(FetchResponse response) implements Signal {}

    record Closed(Status status, Metadata trailers) implements Signal {}

    enum Completed implements Signal {
      INSTANCE
    }

    enum ByteRoom implements Signal {
      INSTANCE
    }

    enum Stop implements Signal {
      INSTANCE
    }
  }

  /** Adapts the async stub to the inbox; never blocks the transport thread. */
  private static final class Observer
      implements ClientResponseObserver<FetchRequest, FetchResponse> {
    private final BlockingQueue<Signal> inbox;
    private volatile ClientCallStreamObserver<FetchRequest> requests;

    Observer(BlockingQueue<Signal> inbox) {
      this.inbox = inbox;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<FetchRequest> requestStream) {
      this.requests = requestStream;
      requestStream.disableAutoRequestWithInitial(1);
    }

    @Override
    public void onNext(FetchResponse value) {
      inbox.add(new Signal.Response(value));
    }

    @Override
    public void onError(Throwable t) {
      Status s = Status.fromThrowable(t);
      Metadata trailers = Status.trailersFromThrowable(t);
      inbox.add(new Signal.Closed(s, trailers));
    }

    @Override
    public void onCompleted() {
      inbox.add(Signal.Completed.INSTANCE);
    }
  }

  /** Thrown inside a call when the stop signal fired during a bridge wait. */
  private static final class StoppedInside extends Exception {
    private static final long serialVersionUID = 1L;

    StoppedInside() {
      super(null, null, false, false);
    }
  }

  private final class Connection {
    private final BlockingQueue<Signal> inbox = new LinkedBlockingQueue<>();
    private final int n = settings.numRequested();
    private PubSubCallMetadata call;
    private Observer observer;
    private boolean ended;
    private boolean delivered;
    private long idleSince;
    private long serverPending;
    private long inFlight;
    private boolean deferred;
    private Schema lastSchema;

    End run() throws InterruptedException {
      try {
        call = PubSubCallMetadata.fresh(credentials);
      } catch (AuthException e) {
        log.atWarn()
            .addKeyValue("topic", topic)
            .addKeyValue("status", e.status())
            .addKeyValue("error_code", e.errorCode())
            .log("pubsub cannot authenticate; retrying");
        return end(Kind.NO_CREDENTIALS);
      }
      currentInbox.set(inbox);
      if (stop.isStopped()) {
        return end(Kind.STOPPED);
      }
      Runnable unregister = bridge.onByteRoom(() -> inbox.add(Signal.ByteRoom.INSTANCE));
      try {
        return subscribe();
      } catch (StoppedInside e) {
        return end(Kind.STOPPED);
      } finally {
        unregister.run();
        if (!ended && observer != null && observer.requests != null) {
          observer.requests.cancel("sf2loki reader ended the call", null);
        }
        metrics.pubsubStreamUp.set(0, topicAttrs);
        metrics.pubsubPendingCredits.set(0, topicAttrs);
      }
    }

    private End subscribe() throws InterruptedException, StoppedInside {
      ReplayPosition start = position;
      if (start.resuming() && discarded.isDiscarded(topic, start.replayId())) {
        start = ReplayPosition.of(settings.onInvalidReplay());
        position = start;
      }
      observer = new Observer(inbox);
      PubSubGrpc.newStub(channel)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(call.headers()))
          .subscribe(observer);
      FetchRequest.Builder first =
          FetchRequest.newBuilder()
              .setTopicName(topic)
              .setReplayPreset(start.preset())
              .setNumRequested(n);
      if (start.preset() == ReplayPreset.CUSTOM) {
        first.setReplayId(start.replayId());
      }
      log.atDebug()
          .addKeyValue("topic", topic)
          .addKeyValue("start", start.toString())
          .addKeyValue("x_client_trace_id", call.traceId())
          .log("pubsub subscribing");
      serverPending = n;
      inFlight = 0;
      idleSince = time.ticker().nanoTime();
      if (!write(first.build())) {
        return quietEnd();
      }
      long pollNanos = settings.inboxPoll().toNanos();
      while (true) {
        Signal s;
        try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21: the server's turn
          s = inbox.poll(pollNanos, TimeUnit.NANOSECONDS);
        }
        if (stop.isStopped()) {
          return end(Kind.STOPPED);
        }
        if (s == null || s instanceof Signal.ByteRoom) {
          if (deferred && bridge.hasByteRoom()) {
            deferred = false;
            if (!topUp()) {
              return quietEnd();
            }
          }
          if (s == null && time.ticker().nanoTime() - idleSince >= settings.watchdog().toNanos()) {
            return stalled();
          }
          continue;
        }
        switch (s) {
          case Signal.Stop x -> {
            return end(Kind.STOPPED);
          }
          case Signal.Completed x -> {
            ended = true;
            return end(Kind.COMPLETED);
          }
          case Signal.Closed c -> {
            ended = true;
            return new End(Kind.CLOSED, delivered, c.status(), c.trailers(), call);
          }
          case Signal.Response r -> {
            End failed = onResponse(r.response());
            if (failed != null) {
              return failed;
            }
            observer.requests.request(1);
          }
          default -> throw new IllegalStateException("unexpected signal " + s);
        }
      }
    }

    /** Processes one response; a non-null result ends the call. */
    private End onResponse(FetchResponse r) throws InterruptedException, StoppedInside {
      idleSince = time.ticker().nanoTime();
      if (!delivered) {
        delivered = true;
      }
      metrics.pubsubStreamUp.set(held ? 0 : 1, topicAttrs);
      reporter.ok(PubSubTopics.checkpointKey(topic));
      metrics.pubsubPendingCredits.set(r.getPendingNumRequested(), topicAttrs);
      metrics.sourceLastSuccessTimestampSeconds.set(
          time.now().toEpochMilli() / 1000.0, progressAttrs);
      long reported = r.getPendingNumRequested();
      if (r.getEventsCount() == 0 || reported > serverPending - r.getEventsCount()) {
        inFlight = 0; // the server has accounted for our last top-up
      }
      serverPending = reported;
      for (ConsumerEvent event : r.getEventsList()) {
        End failed = onEvent(event);
        if (failed != null) {
          return failed;
        }
      }
      if (r.getEventsCount() == 0 && r.getPendingNumRequested() > 0) {
        // PS-11, guarded: only a keepalive sent while the server still held credits proves there
        // was nothing to deliver; with zero credits outstanding the server may be withholding
        // events, and a "latest" id then could lie ahead of them
        keepalive(r.getLatestReplayId());
      }
      if (serverPending + inFlight <= n / 2) {
        if (bridge.hasByteRoom()) {
          deferred = false;
          if (!topUp()) {
            return quietEnd();
          }
        } else {
          deferred = true;
        }
      }
      return null;
    }

    /** PS-7 / PS-11. */
    private void keepalive(ByteString latest) throws InterruptedException, StoppedInside {
      if (latest.isEmpty() || latest.equals(position.replayId())) {
        return;
      }
      put(shaper.checkpointOnly(latest));
      position = ReplayPosition.after(latest);
    }

    /** PS-4…PS-6, PS-9, PS-10, PS-11 for one event. */
    private End onEvent(ConsumerEvent event) throws InterruptedException, StoppedInside {
      ByteString replayId = event.getReplayId();
      String schemaId = event.getEvent().getSchemaId();
      Schema schema;
      try {
        schema = schemas.cached(schemaId);
        if (schema == null) {
          schema = fetchSchema(schemaId);
        }
        if (schema != lastSchema) { // the cache only grows when a schema is first fetched
          metrics.schemaCacheSize.set(schemas.size());
          lastSchema = schema;
        }
        schemaFailures = 0;
      } catch (SchemaCache.SchemaFetchException e) {
        schemaFailures++;
        log.atWarn()
            .addKeyValue("topic", topic)
            .addKeyValue("schema_id", schemaId)
            .addKeyValue("error", reporter.redact(e.getMessage()))
            .log("pubsub schema unavailable; reconnecting from the last position");
        if (schemaFailures == settings.stuckAfter()) {
          stuck("schema fetch failures", schemaFailures);
        }
        return end(Kind.SCHEMA_FAILED);
      }
      Map<String, Object> decoded;
      try {
        decoded = decoder.decode(schema, event.getEvent().getPayload().toByteArray());
      } catch (AvroDecodeException e) {
        return decodeFailed(e, replayId, schemaId);
      }
      failingId = null;
      failingConnections = 0;
      decodeEndedConnections = 0;
      release();
      LogEntry entry = shaper.shape(decoded, replayId, schemaId);
      put(entry);
      position = ReplayPosition.after(replayId);
      return null;
    }

    private End decodeFailed(AvroDecodeException e, ByteString replayId, String schemaId)
        throws InterruptedException, StoppedInside {
      metrics.decodeErrors.add(
          1,
          Attributes.of(
              Sf2lokiMetrics.REASON, e.getClass().getSimpleName(), Sf2lokiMetrics.TOPIC, topic));
      if (replayId.equals(failingId)) {
        failingConnections++;
      } else {
        failingId = replayId;
        failingConnections = 1;
      }
      if (!held) {
        held = true;
        undecodable.hold(topic);
      }
      metrics.pubsubStreamUp.set(0, topicAttrs);
      if (failingConnections >= settings.skipAfter()) {
        log.atWarn()
            .addKeyValue("topic", topic)
            .addKeyValue("replay_id", ReplayPosition.base64(replayId))
            .addKeyValue("schema_id", schemaId)
            .addKeyValue("error", reporter.redact(e.getMessage()))
            .log("pubsub event skipped: cannot decode");
        failingId = null;
        failingConnections = 0;
        put(shaper.checkpointOnly(replayId));
        position = ReplayPosition.after(replayId);
        release();
        return null;
      }
      log.atWarn()
          .addKeyValue("topic", topic)
          .addKeyValue("replay_id", ReplayPosition.base64(replayId))
          .addKeyValue("schema_id", schemaId)
          .addKeyValue("attempt", failingConnections)
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("pubsub event cannot be decoded; reconnecting from before it");
      decodeEndedConnections++;
      if (decodeEndedConnections == settings.stuckAfter()) {
        stuck("connections ended by a decode failure", decodeEndedConnections);
      }
      return end(Kind.DECODE_FAILED);
    }

    private void release() {
      if (held) {
        held = false;
        undecodable.release(topic);
        metrics.pubsubStreamUp.set(1, topicAttrs);
      }
    }

    /** PS-9. */
    private void stuck(String what, int count) {
      metrics.pubsubDecodeStalls.add(1, topicAttrs);
      log.atError()
          .addKeyValue("topic", topic)
          .addKeyValue("consecutive", count)
          .addKeyValue("cause", what)
          .addKeyValue("position", position.toString())
          .log("pubsub topic is stuck");
    }

    /** PS-8. */
    private End stalled() {
      metrics.pubsubStreamStalls.add(1, topicAttrs);
      log.atWarn()
          .addKeyValue("topic", topic)
          .addKeyValue("watchdog", settings.watchdog())
          .addKeyValue("x_client_trace_id", call.traceId())
          .log("pubsub stream stalled; reconnecting");
      return end(Kind.STALLED);
    }

    /** Writes to the bridge; the watchdog clock pauses while the bridge is full (PS-8). */
    private void put(LogEntry entry) throws InterruptedException, StoppedInside {
      long t0 = time.ticker().nanoTime();
      boolean ok = bridge.put(entry, stop);
      idleSince += time.ticker().nanoTime() - t0;
      if (!ok) {
        throw new StoppedInside();
      }
    }

    /** PS-3 top-up; false when the call is already half-closed or cancelled. */
    private boolean topUp() {
      long pending = serverPending + inFlight;
      if (pending > n / 2) {
        return true;
      }
      int k = (int) (n - pending);
      if (!write(FetchRequest.newBuilder().setTopicName(topic).setNumRequested(k).build())) {
        return false;
      }
      inFlight += k;
      return true;
    }

    private boolean write(FetchRequest request) {
      try {
        observer.requests.onNext(request);
        return true;
      } catch (RuntimeException e) {
        log.atDebug()
            .addKeyValue("topic", topic)
            .addKeyValue("x_client_trace_id", call.traceId())
            .log("pubsub credit write on a closed call; ending the stream");
        return false;
      }
    }

    private End quietEnd() {
      return end(Kind.COMPLETED);
    }

    private End end(Kind kind) {
      return new End(kind, delivered, null, null, call);
    }
  }
}
