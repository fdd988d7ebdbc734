package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.salesforce.source.CpuOffload;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One topic's event decoding across its calls (SPEC PS-4…PS-6, PS-9, PS-10): the writer schema from
 * the cache (fetched on a miss inside a context the reader's stop cancels), the Avro decode, and
 * the memory of failures — the event that failed on consecutive connections (skipped after {@code
 * skip_after}), the PS-6 readiness hold while an event cannot be decoded, and the PS-9 stuck signal
 * after {@code stuck_after} schema failures or decode-ended connections. The decode, the transforms
 * and the shaping of an event run as one task on the CPU pool (PIPE-26, XF-1) while the reader
 * thread waits stop-aware; schema fetches stay on the reader thread (they are gRPC calls). Owns its
 * {@link AvroEventDecoder}; used by one thread at a time (the reader, or the pool task it awaits).
 */
final class TopicDecoding {
  private static final Logger log = LoggerFactory.getLogger(TopicReader.class);

  /** What the call does with one event. */
  sealed interface Step {}

  /** Hand {@code entry} to the bridge; the position moves past {@code replayId}. */
  record Emit(LogEntry entry, ByteString replayId) implements Step {}

  /** PS-10: skip the undecodable event with a checkpoint-only entry, then {@link #release()}. */
  record Skip(ByteString replayId) implements Step {}

  /** End the call and reconnect from the current position. */
  record EndCall(SubscribeCall.Kind kind) implements Step {}

  private final ReaderContext ctx;
  private final SchemaCache schemas;
  private final UndecodableTopics undecodable;
  private final TopicPosition position;
  private final AvroEventDecoder decoder = new AvroEventDecoder();
  private final CpuOffload cpu;
  private ByteString failingId;
  private int failingConnections;
  private int decodeEndedConnections;
  private int schemaFailures;
  private boolean held;
  private Schema lastSchema;

  TopicDecoding(
      ReaderContext ctx,
      SchemaCache schemas,
      UndecodableTopics undecodable,
      TopicPosition position,
      Executor cpu) {
    this.cpu = new CpuOffload(cpu);
    this.ctx = ctx;
    this.schemas = schemas;
    this.undecodable = undecodable;
    this.position = position;
  }

  /** A new call starts: the schema gauge is set again at its first event. */
  void newCall() {
    lastSchema = null;
  }

  /** Whether the topic holds readiness down (PS-6): its current event cannot be decoded. */
  boolean held() {
    return held;
  }

  /** PS-4…PS-6, PS-9, PS-10 for one event. */
  Step onEvent(ConsumerEvent event, PollReporter reporter) throws InterruptedException {
    ByteString replayId = event.getReplayId();
    String schemaId = event.getEvent().getSchemaId();
    Schema schema;
    try {
      schema = schemas.cached(schemaId);
      if (schema == null) {
        schema = fetchSchema(schemaId);
      }
      if (schema != lastSchema) { // the cache only grows when a schema is first fetched
        ctx.metrics().schemaCacheSize.set(schemas.size());
        lastSchema = schema;
      }
      schemaFailures = 0;
    } catch (SchemaCache.SchemaFetchException e) {
      schemaFailures++;
      log.atWarn()
          .addKeyValue("topic", ctx.topic())
          .addKeyValue("schema_id", schemaId)
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("pubsub schema unavailable; reconnecting from the last position");
      if (schemaFailures == ctx.settings().stuckAfter()) {
        stuck("schema fetch failures", schemaFailures);
      }
      return new EndCall(SubscribeCall.Kind.SCHEMA_FAILED);
    }
    LogEntry entry;
    try {
      Schema writer = schema;
      Optional<LogEntry> shaped =
          CpuOffload.await(
              cpu.submit(
                  () ->
                      ctx.shaper()
                          .shape(
                              decoder.decode(writer, event.getEvent().getPayload().toByteArray()),
                              replayId,
                              schemaId)),
              ctx.stop(),
              AvroDecodeException.class);
      if (shaped.isEmpty()) {
        return new EndCall(SubscribeCall.Kind.STOPPED);
      }
      entry = shaped.get();
    } catch (AvroDecodeException e) {
      return decodeFailed(e, replayId, schemaId, reporter);
    }
    failingId = null;
    failingConnections = 0;
    decodeEndedConnections = 0;
    release();
    return new Emit(entry, replayId);
  }

  private Step decodeFailed(
      AvroDecodeException e, ByteString replayId, String schemaId, PollReporter reporter) {
    ctx.metrics()
        .decodeErrors
        .add(
            1,
            Attributes.of(
                Sf2lokiMetrics.REASON,
                e.getClass().getSimpleName(),
                Sf2lokiMetrics.TOPIC,
                ctx.topic()));
    if (replayId.equals(failingId)) {
      failingConnections++;
    } else {
      failingId = replayId;
      failingConnections = 1;
    }
    if (!held) {
      held = true;
      undecodable.hold(ctx.topic());
    }
    ctx.metrics().pubsubStreamUp.set(0, ctx.topicAttrs());
    if (failingConnections >= ctx.settings().skipAfter()) {
      log.atWarn()
          .addKeyValue("topic", ctx.topic())
          .addKeyValue("replay_id", ReplayPosition.base64(replayId))
          .addKeyValue("schema_id", schemaId)
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("pubsub event skipped: cannot decode");
      failingId = null;
      failingConnections = 0;
      return new Skip(replayId);
    }
    log.atWarn()
        .addKeyValue("topic", ctx.topic())
        .addKeyValue("replay_id", ReplayPosition.base64(replayId))
        .addKeyValue("schema_id", schemaId)
        .addKeyValue("attempt", failingConnections)
        .addKeyValue("error", reporter.redact(e.getMessage()))
        .log("pubsub event cannot be decoded; reconnecting from before it");
    decodeEndedConnections++;
    if (decodeEndedConnections == ctx.settings().stuckAfter()) {
      stuck("connections ended by a decode failure", decodeEndedConnections);
    }
    return new EndCall(SubscribeCall.Kind.DECODE_FAILED);
  }

  /** PS-6: the topic no longer holds readiness down. */
  void release() {
    if (held) {
      held = false;
      undecodable.release(ctx.topic());
      ctx.metrics().pubsubStreamUp.set(1, ctx.topicAttrs());
    }
  }

  /** At the reader's end: a hold still in place is given back (PS-6). */
  void releaseAtEnd() {
    if (held) {
      undecodable.release(ctx.topic());
    }
  }

  /** PS-9. */
  private void stuck(String what, int count) {
    ctx.metrics().pubsubDecodeStalls.add(1, ctx.topicAttrs());
    log.atError()
        .addKeyValue("topic", ctx.topic())
        .addKeyValue("consecutive", count)
        .addKeyValue("cause", what)
        .addKeyValue("position", position.get().toString())
        .log("pubsub topic is stuck");
  }

  /**
   * A cache miss: fetches the schema inside a gRPC context that the reader's stop cancels, so a
   * hanging {@code GetSchema} (30 s deadline) does not hold a stopping term (PS-16).
   */
  private Schema fetchSchema(String schemaId)
      throws SchemaCache.SchemaFetchException, InterruptedException {
    io.grpc.Context.CancellableContext c = io.grpc.Context.current().withCancellation();
    ctx.stop().onStop(() -> c.cancel(null));
    try {
      return c.call(() -> schemas.get(schemaId));
    } catch (SchemaCache.SchemaFetchException | InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new SchemaCache.SchemaFetchException("schema " + schemaId + " cannot be fetched", e);
    } finally {
      c.cancel(null);
    }
  }
}
