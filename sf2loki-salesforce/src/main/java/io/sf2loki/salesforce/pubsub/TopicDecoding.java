package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.salesforce.source.CpuOffload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * and the shaping of a response's events run as one task on the CPU pool (PIPE-26, XF-1) while the
 * reader thread waits stop-aware; schema fetches stay on the reader thread (they are gRPC calls).
 * Owns its {@link AvroEventDecoder}; used by one thread at a time (the reader, or the pool task it
 * awaits).
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

  /**
   * PS-4…PS-6, PS-9, PS-10 for the events of one response, in order: the writer schemas on this
   * (the reader's) thread, then one CPU-pool task that decodes, transforms and shapes them
   * (PIPE-26, XF-1) until the first event that cannot be decoded. A skipped event (PS-10) lets the
   * rest of the response go on; a decode or schema failure that ends the call is the last step.
   *
   * @return the steps in event order; empty for an empty response
   */
  List<Step> onEvents(List<ConsumerEvent> events, PollReporter reporter)
      throws InterruptedException {
    List<Step> steps = new ArrayList<>(events.size() + 1);
    int from = 0;
    while (from < events.size()) {
      Schema[] writers = new Schema[events.size()];
      int ready = from;
      while (ready < events.size()
          && (writers[ready] = schema(events.get(ready), reporter)) != null) {
        ready++;
      }
      int first = from;
      int count = ready;
      Optional<Shaped> done =
          CpuOffload.await(
              cpu.submit(() -> shapeAll(events, writers, first, count)),
              ctx.stop(),
              RuntimeException.class);
      if (done.isEmpty()) {
        steps.add(new EndCall(SubscribeCall.Kind.STOPPED));
        return steps;
      }
      Shaped shaped = done.get();
      for (int i = first; i < shaped.end(); i++) {
        failingId = null;
        failingConnections = 0;
        decodeEndedConnections = 0;
        release();
        steps.add(new Emit(shaped.entries()[i - first], events.get(i).getReplayId()));
      }
      if (shaped.failure() != null) {
        ConsumerEvent bad = events.get(shaped.end());
        Step step =
            decodeFailed(
                shaped.failure(), bad.getReplayId(), bad.getEvent().getSchemaId(), reporter);
        steps.add(step);
        if (!(step instanceof Skip)) {
          return steps;
        }
        from = shaped.end() + 1;
      } else if (ready < events.size()) {
        steps.add(new EndCall(SubscribeCall.Kind.SCHEMA_FAILED));
        return steps;
      } else {
        from = ready;
      }
    }
    return steps;
  }

  /**
   * What the CPU task made of events [from, end): their entries, and the decode failure of event
   * {@code end} when it stopped early (null when every event was shaped).
   */
  private record Shaped(LogEntry[] entries, int end, AvroDecodeException failure) {}

  /** Decodes, transforms and shapes events [from, to) in order; runs on the CPU pool. */
  private Shaped shapeAll(List<ConsumerEvent> events, Schema[] writers, int from, int to) {
    LogEntry[] out = new LogEntry[to - from];
    for (int i = from; i < to; i++) {
      ConsumerEvent e = events.get(i);
      try {
        Map<String, Object> decoded =
            decoder.decode(writers[i], e.getEvent().getPayload().toByteArray());
        out[i - from] = ctx.shaper().shape(decoded, e.getReplayId(), e.getEvent().getSchemaId());
      } catch (AvroDecodeException ex) {
        return new Shaped(out, i, ex);
      }
    }
    return new Shaped(out, to, null);
  }

  /** The event's writer schema (PS-4), or null after a fetch failure (logged, PS-9 counted). */
  private Schema schema(ConsumerEvent event, PollReporter reporter) throws InterruptedException {
    String schemaId = event.getEvent().getSchemaId();
    try {
      Schema schema = schemas.cached(schemaId);
      if (schema == null) {
        schema = fetchSchema(schemaId);
      }
      if (schema != lastSchema) { // the cache only grows when a schema is first fetched
        ctx.metrics().schemaCacheSize.set(schemas.size());
        lastSchema = schema;
      }
      schemaFailures = 0;
      return schema;
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
      return null;
    }
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
