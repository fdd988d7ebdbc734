package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.e2e.support.PubSubScenario;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.pubsub.PublishedEvent;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code sources.pubsub.transforms} through the real daemon and the simulated Pub/Sub API. */
class PubSubTransformsEndToEndTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final String TOPIC = SimPubSub.LOGIN_TOPIC;

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

  private static String hash(String text) throws Exception {
    byte[] d =
        MessageDigest.getInstance("SHA-256")
            .digest(text.getBytes(StandardCharsets.UTF_8)); // no salt: XF-2 with ""
    return HexFormat.of().formatHex(d).substring(0, 16);
  }

  private long filtered(String rule) {
    long sum = 0;
    for (MetricData m : metrics.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_rows_filtered")) {
        for (var p : m.getLongSumData().getPoints()) {
          if (rule.equals(p.getAttributes().get(AttributeKey.stringKey("rule")))
              && "pubsub".equals(p.getAttributes().get(AttributeKey.stringKey("source")))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  @Test
  @DisplayName(
      "XF-1, XF-2, XF-6, XF-14: Pub/Sub events are hashed before they are shaped (no raw SourceIp"
          + " stored) and a drop_row match on the last event still moves the topic's checkpoint to"
          + " its replay id")
  void xf1_pubsubTransformsThroughTheDaemon() throws Exception {
    List<PublishedEvent> published = scenario.pubsub().publish(TOPIC, 400);
    PublishedEvent last = published.get(published.size() - 1);
    String lastId = String.valueOf(last.fields().get("EventIdentifier"));
    Path cfg =
        scenario.writeConfig(
            List.of(TOPIC),
            "    replay_preset: EARLIEST\n"
                + "    transforms:\n"
                + "      - {action: hash, fields: [SourceIp]}\n"
                + "      - {action: drop_row, name: last-one, match: {EventIdentifier: \""
                + lastId
                + "\"}}\n",
            "");
    Set<String> rawIps =
        published.stream()
            .map(e -> e.fields().get("SourceIp"))
            .filter(v -> v != null)
            .map(String::valueOf)
            .collect(Collectors.toSet());
    assertThat(rawIps).isNotEmpty();

    try (RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      await()
          .atMost(LIMIT)
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  scenario.checkpoint(TOPIC).equals(Optional.of(last.replayIdBase64()))
                      || !d.isRunning());
      assertThat(scenario.checkpoint(TOPIC)).contains(last.replayIdBase64());
      assertThat(d.stop()).as(d.stderr()).isZero();
    }

    List<ReceivedEntry> got = scenario.receiver().entries();
    assertThat(got).hasSize(published.size() - 1);
    Map<String, String> ipByEvent = new HashMap<>();
    published.forEach(
        e ->
            ipByEvent.put(
                String.valueOf(e.fields().get("EventIdentifier")),
                String.valueOf(e.fields().get("SourceIp"))));
    ObjectMapper json = new ObjectMapper();
    for (ReceivedEntry e : got) {
      for (String ip : rawIps) {
        assertThat(e.line()).doesNotContain(ip);
        assertThat(e.structuredMetadata().values()).doesNotContain(ip);
      }
      var node = json.readTree(e.line());
      String id = node.path("EventIdentifier").asText();
      assertThat(id).isNotEqualTo(lastId);
      assertThat(node.path("SourceIp").asText()).isEqualTo(hash(ipByEvent.get(id)));
    }
    assertThat(filtered("last-one")).isEqualTo(1);
  }
}
