package io.sf2loki.salesforce.pubsub;

import static io.sf2loki.salesforce.pubsub.ReaderHarness.b64;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.event;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.events;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.loginPayload;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.rid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.transform.TransformAction;
import io.sf2loki.core.transform.TransformChain;
import io.sf2loki.core.transform.TransformSpec;
import io.sf2loki.salesforce.source.SourceTransforms;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Pub/Sub events through {@code sources.pubsub.transforms} (SPEC XF-1…XF-7, PIPE-26). */
class TopicTransformsTest {
  private static final String KEY = "pubsub:" + ReaderHarness.TOPIC;

  private final ExecutorService pool =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "test-cpu"));
  private final Set<String> shapingThreads = ConcurrentHashMap.newKeySet();
  private final java.util.concurrent.atomic.AtomicInteger cpuTasks =
      new java.util.concurrent.atomic.AtomicInteger();
  private ReaderHarness h;

  @AfterEach
  void tearDown() throws Exception {
    if (h != null) {
      h.close();
    }
    pool.shutdownNow();
  }

  private ReaderHarness harness(TransformSpec... rules) throws Exception {
    h = new ReaderHarness();
    h.transforms =
        new SourceTransforms(
            TransformChain.compile(List.of(rules), "salt-1"), TopicReader.SOURCE, h.metrics);
    h.cpu =
        r ->
            pool.execute(
                () -> {
                  cpuTasks.incrementAndGet();
                  shapingThreads.add(Thread.currentThread().getName());
                  r.run();
                });
    return h;
  }

  private static String sha16(String text) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(d).substring(0, 16);
  }

  @Test
  @DisplayName(
      "XF-1, XF-2, XF-3, PIPE-26: a decoded event is transformed in place before shaping, on the"
          + " CPU pool; line and metadata carry the hashed and masked values")
  void xf1_pubsubEventTransformedOnCpuPool() throws Exception {
    harness(
        TransformSpec.of(TransformAction.HASH, "SourceIp"),
        TransformSpec.of(TransformAction.MASK, "Username"));
    PubSubReaderSettings d = h.settings;
    h.settings =
        new PubSubReaderSettings(
            d.numRequested(),
            d.replayPreset(),
            d.onInvalidReplay(),
            d.watchdog(),
            d.backoffInitial(),
            d.backoffMax(),
            d.skipAfter(),
            d.stuckAfter(),
            d.schemaDeadline(),
            List.of("SourceIp"),
            d.sampleRates(),
            d.inboxPoll());
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(events(99, event(rid(1), loginPayload())));
    LogEntry e = h.bridge.next();

    JsonNode line = new ObjectMapper().readTree(e.line());
    assertThat(line.get("SourceIp").asText()).isEqualTo(sha16("salt-1" + "192.0.2.10"));
    assertThat(line.get("Username").asText()).isEqualTo("***@example.com");
    assertThat(e.line()).doesNotContain("192.0.2.10").doesNotContain("alice@");
    assertThat(e.structuredMetadata()).containsEntry("SourceIp", sha16("salt-1192.0.2.10"));
    assertThat(e.checkpoint()).isEqualTo(new CheckpointToken(KEY, b64(rid(1))));
    assertThat(shapingThreads).containsExactly("test-cpu");
  }

  @Test
  @DisplayName(
      "XF-6, XF-7, XF-14, PIPE-26: a drop_row match leaves a checkpoint-only entry (the position"
          + " advances) and counts sf2loki_rows_filtered{source=pubsub, rule}; a response's events"
          + " are decoded and shaped in one CPU-pool task")
  void xf6_pubsubDropRowAdvancesAndCounts() throws Exception {
    harness(
        TransformSpec.of(TransformAction.HASH, "SourceIp"),
        TransformSpec.dropRow(Map.of("Status", "Succ*", "Country", "Germany")).named("ok-de"));
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(events(98, event(rid(1), loginPayload()), event(rid(2), loginPayload())));
    LogEntry first = h.bridge.next();
    LogEntry second = h.bridge.next();

    assertThat(first.checkpointOnly()).isTrue();
    assertThat(first.checkpoint()).isEqualTo(new CheckpointToken(KEY, b64(rid(1))));
    assertThat(second.checkpointOnly()).isTrue();
    assertThat(second.checkpoint()).isEqualTo(new CheckpointToken(KEY, b64(rid(2))));
    assertThat(cpuTasks).hasValue(1);
    assertThat(
            h.probe
                .collect()
                .counter(
                    "sf2loki_rows_filtered",
                    Attributes.of(Sf2lokiMetrics.SOURCE, "pubsub", Sf2lokiMetrics.RULE, "ok-de")))
        .isEqualTo(2);
    assertThat(
            h.probe.counter(
                "sf2loki_entries_sampled_out",
                Attributes.of(
                    Sf2lokiMetrics.SOURCE,
                    "pubsub",
                    Sf2lokiMetrics.EVENT_TYPE,
                    "LoginEventStream")))
        .isZero();
  }
}
