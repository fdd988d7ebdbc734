package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.app.e2e.support.PubSubScenario;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.pubsub.PublishedEvent;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 acceptance through the real daemon: the simulated org (OAuth) and Pub/Sub API over
 * loopback gRPC, the Loki receiver over HTTP, checkpoints in a real state file.
 */
class PubSubEndToEndTest {
  private static final List<String> TOPICS =
      List.of(SimPubSub.LOGIN_TOPIC, SimPubSub.API_TOPIC, SimPubSub.ACCOUNT_CDC_TOPIC);
  private static final Duration LIMIT = Duration.ofSeconds(60);

  private PubSubScenario scenario;
  private final RetainingMetricReader metrics = new RetainingMetricReader();

  @BeforeEach
  void start() throws Exception {
    scenario = PubSubScenario.start();
  }

  @AfterEach
  void stop() {
    scenario.close();
  }

  private static String lastSegment(String topic) {
    return topic.substring(topic.lastIndexOf('/') + 1);
  }

  /** Events keyed by base64 replay id (unique across topics: the id embeds a topic prefix). */
  private static Map<String, PublishedEvent> byReplayId(List<PublishedEvent> events) {
    Map<String, PublishedEvent> out = new LinkedHashMap<>();
    events.forEach(e -> out.put(e.replayIdBase64(), e));
    return out;
  }

  private List<PublishedEvent> publish(Map<String, Integer> counts) {
    List<PublishedEvent> all = new ArrayList<>();
    counts.forEach((topic, n) -> all.addAll(scenario.pubsub().publish(topic, n)));
    return all;
  }

  private void awaitCheckpointsAt(Map<String, PublishedEvent> lastPerTopic) {
    await()
        .atMost(LIMIT)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () ->
                lastPerTopic.entrySet().stream()
                    .allMatch(
                        e ->
                            scenario
                                .checkpoint(e.getKey())
                                .equals(java.util.Optional.of(e.getValue().replayIdBase64()))));
  }

  private static Map<String, PublishedEvent> lastPerTopic(List<PublishedEvent> events) {
    Map<String, PublishedEvent> last = new HashMap<>();
    events.forEach(e -> last.put(e.topic(), e));
    return last;
  }

  @Test
  @DisplayName(
      "PS-4, PS-5, PS-10, PS-11, SRC-5, SRC-6, SRC-9, SRC-15: 10,000 events over three topics"
          + " (one CDC) land exactly once with their labels, metadata, line and nanosecond"
          + " timestamp; each topic's checkpoint is its last replay id")
  void ps10_tenThousandEventsLandExactlyOnce() throws Exception {
    Path cfg =
        scenario.writeConfig(
            TOPICS, "    replay_preset: EARLIEST\n", "    batch:\n      max_entries: 500\n");
    List<PublishedEvent> published =
        publish(
            Map.of(
                SimPubSub.LOGIN_TOPIC, 4000,
                SimPubSub.API_TOPIC, 3000,
                SimPubSub.ACCOUNT_CDC_TOPIC, 3000));
    assertThat(published).hasSize(10_000);
    Map<String, PublishedEvent> expected = byReplayId(published);
    assertThat(expected).hasSize(10_000);

    try (RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      await()
          .atMost(LIMIT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> scenario.receiver().totalEntries() >= 10_000 || !d.isRunning());
      awaitCheckpointsAt(lastPerTopic(published));
      assertThat(d.stop()).as(d.stderr()).isZero();
    }

    List<ReceivedEntry> got = scenario.receiver().entries();
    assertThat(got).hasSize(10_000);
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
    String orgId = scenario.org().orgId();
    Map<String, Integer> seen = new HashMap<>();
    for (ReceivedEntry e : got) {
      String replayId = e.structuredMetadata().get("replay_id");
      PublishedEvent p = expected.get(replayId);
      assertThat(p).as("entry with replay_id %s was published", replayId).isNotNull();
      seen.merge(replayId, 1, Integer::sum);
      assertThat(e.labels())
          .containsOnlyKeys(
              "job", "service_name", "environment", "sf_org_id", "source", "event_type")
          .containsEntry("job", "sf2loki")
          .containsEntry("service_name", "sf2loki")
          .containsEntry("environment", "production")
          .containsEntry("sf_org_id", orgId)
          .containsEntry("source", "pubsub")
          .containsEntry("event_type", lastSegment(p.topic()));
      assertThat(e.timestamp()).as("PS-10 event time").isEqualTo(p.eventTime());
      assertThat(e.line()).as("SRC-6 canonical JSON").isEqualTo(CanonicalJson.write(p.fields()));
      Map<String, String> md = new HashMap<>();
      md.put("replay_id", p.replayIdBase64());
      md.put("schema_id", p.schemaId());
      if (p.fields().get("EventUuid") != null) {
        md.put("event_uuid", p.fields().get("EventUuid").toString());
      }
      if (p.fields().get("UserId") != null) {
        md.put("user_id", p.fields().get("UserId").toString());
      }
      assertThat(e.structuredMetadata()).containsAllEntriesOf(md);
      assertThat(e.structuredMetadata().keySet())
          .containsExactlyInAnyOrderElementsOf(
              concat(md.keySet(), List.of("level"))); // SRC-9: nothing else
      assertThat(e.structuredMetadata().get("level")).isIn("info", "warn", "error");
    }
    assertThat(seen).hasSize(10_000).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
    // CDC: the change event header stays nested, bitmap fields unexpanded (PS-5)
    assertThat(got)
        .filteredOn(e -> e.labels().get("event_type").equals("AccountChangeEvent"))
        .hasSize(3000)
        .allSatisfy(e -> assertThat(e.line()).contains("\"ChangeEventHeader\": {"));
    assertThat(metrics.counterTotal("sf2loki_pubsub_replay_fallbacks")).isZero();
  }

  private static List<String> concat(java.util.Collection<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** Counts real entries pushed successfully; fires {@code stop} after {@code stopAfter} pushes. */
  private static UnaryOperator<Sink> counting(
      AtomicLong entries, int stopAfter, StopSignal[] stop) {
    AtomicInteger pushes = new AtomicInteger();
    return sink ->
        new Sink() {
          @Override
          public PushResult push(Batch b, boolean single, StopSignal s)
              throws RetryableSinkException, PermanentSinkException, InterruptedException {
            PushResult r = sink.push(b, single, s);
            entries.addAndGet(b.realCount());
            if (pushes.incrementAndGet() == stopAfter && stop[0] != null) {
              stop[0].stop();
            }
            return r;
          }

          @Override
          public void close() {
            sink.close();
          }
        };
  }

  @Test
  @DisplayName(
      "PS-11, PS-12, PS-13, PIPE-1, SRC-15: a stop mid-stream and a restart on the same state"
          + " file lose nothing and re-send only the uncommitted tail")
  void ps12_restartResendsOnlyUncommittedTail() throws Exception {
    Path cfg =
        scenario.writeConfig(
            TOPICS,
            "    replay_preset: EARLIEST\n    default_num_requested: 50\n",
            "    batch:\n      max_entries: 100\n");
    List<PublishedEvent> published =
        publish(
            Map.of(
                SimPubSub.LOGIN_TOPIC, 2000,
                SimPubSub.API_TOPIC, 1500,
                SimPubSub.ACCOUNT_CDC_TOPIC, 1500));
    int total = published.size();

    AtomicLong firstRun = new AtomicLong();
    StopSignal[] stop1 = new StopSignal[1];
    RunningDaemon d1 = RunningDaemon.start(cfg, metrics, counting(firstRun, 5, stop1));
    stop1[0] = d1.stopSignal();
    assertThat(d1.awaitExit(LIMIT)).as(d1.stderr()).isZero();
    d1.close();

    long delivered1 = scenario.receiver().totalEntries();
    assertThat(delivered1).isPositive().isLessThan(total);
    // committed position per topic: index of the stored replay id in that topic's events
    long committed = 0;
    for (String topic : TOPICS) {
      List<PublishedEvent> events =
          published.stream().filter(e -> e.topic().equals(topic)).toList();
      java.util.Optional<String> stored = scenario.checkpoint(topic);
      if (stored.isEmpty()) {
        continue;
      }
      int idx = -1;
      for (int i = 0; i < events.size(); i++) {
        if (events.get(i).replayIdBase64().equals(stored.get())) {
          idx = i;
        }
      }
      assertThat(idx).as("stored id of %s is one of its events", topic).isNotNegative();
      committed += idx + 1;
    }
    assertThat(committed)
        .as("nothing committed beyond what landed")
        .isLessThanOrEqualTo(delivered1);

    AtomicLong secondRun = new AtomicLong();
    try (RunningDaemon d2 =
        RunningDaemon.start(cfg, new RetainingMetricReader(), counting(secondRun, -1, null))) {
      await()
          .atMost(LIMIT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> scenario.receiver().totalEntries() >= total || !d2.isRunning());
      awaitCheckpointsAt(lastPerTopic(published));
      assertThat(d2.stop()).as(d2.stderr()).isZero();
    }
    // none lost, none twice in Loki
    assertThat(scenario.receiver().totalEntries()).isEqualTo(total);
    // the second run sent exactly the events after the committed positions
    assertThat(secondRun.get()).isEqualTo(total - committed);
    assertThat(scenario.receiver().duplicatesDropped()).isEqualTo(delivered1 - committed);
  }
}
