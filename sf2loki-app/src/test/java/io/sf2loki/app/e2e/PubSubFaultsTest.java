package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.grpc.Status;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.e2e.support.LogCapture;
import io.sf2loki.app.e2e.support.PubSubScenario;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.pubsub.TopicReader;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.pubsub.PublishedEvent;
import io.sf2loki.sim.pubsub.RecordedCall;
import io.sf2loki.sim.pubsub.SimPubSub;
import io.sf2loki.sim.pubsub.TopicStats;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * Issue 4 acceptance, fault side, through the real daemon against the simulated org and Pub/Sub API
 * (loopback gRPC) and the Loki receiver. The PS-8 watchdog (test clock) is covered at reader level
 * by {@code TopicReaderTest}.
 */
class PubSubFaultsTest {
  private static final String LOGIN = SimPubSub.LOGIN_TOPIC;
  private static final Duration LIMIT = Duration.ofSeconds(30);

  private PubSubScenario scenario;
  private final RetainingMetricReader metrics = new RetainingMetricReader();

  private PubSubScenario start(Consumer<SimPubSub.Builder> options) throws Exception {
    scenario = PubSubScenario.start(options);
    return scenario;
  }

  @AfterEach
  void stop() {
    if (scenario != null) {
      scenario.close();
    }
  }

  private void awaitReceived(long n, RunningDaemon d) {
    await()
        .atMost(LIMIT)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> scenario.receiver().totalEntries() >= n || !d.isRunning());
    assertThat(d.isRunning()).as(d.stderr()).isTrue();
  }

  private void awaitCheckpoint(String topic, PublishedEvent last) {
    await()
        .atMost(LIMIT)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> scenario.checkpoint(topic).equals(Optional.of(last.replayIdBase64())));
  }

  /** Waits until {@code value} did not change for {@code window} (loopback traffic settled). */
  private static long awaitStable(LongSupplier value, Duration window) {
    long[] last = {Long.MIN_VALUE};
    long[] since = {System.nanoTime()};
    await()
        .atMost(LIMIT)
        .pollInterval(Duration.ofMillis(25))
        .until(
            () -> {
              long v = value.getAsLong();
              long now = System.nanoTime();
              if (v != last[0]) {
                last[0] = v;
                since[0] = now;
                return false;
              }
              return now - since[0] >= window.toNanos();
            });
    return last[0];
  }

  private double gauge(String name, String topic) {
    for (MetricData m : metrics.collectAllMetrics()) {
      if (!m.getName().equals(name)) {
        continue;
      }
      var points =
          switch (m.getType()) {
            case LONG_GAUGE -> m.getLongGaugeData().getPoints();
            case DOUBLE_GAUGE -> m.getDoubleGaugeData().getPoints();
            default -> List.<io.opentelemetry.sdk.metrics.data.PointData>of();
          };
      for (var p : points) {
        if (topic.equals(p.getAttributes().get(AttributeKey.stringKey("topic")))) {
          return p instanceof io.opentelemetry.sdk.metrics.data.LongPointData l
              ? l.getValue()
              : ((io.opentelemetry.sdk.metrics.data.DoublePointData) p).getValue();
        }
      }
    }
    return Double.NaN;
  }

  // ------------------------------------------------------------------------------ PS-3, PS-18

  @Test
  @DisplayName(
      "PS-3, PS-17, PS-18: outstanding credits never exceed default_num_requested; while Loki"
          + " fails no credit is granted beyond the bridge and lane bound, then everything lands")
  void ps3_creditsStopWhileLokiFails() throws Exception {
    start(b -> {});
    int n = 10;
    Path cfg =
        scenario.writeConfig(
            List.of(LOGIN),
            "    replay_preset: EARLIEST\n    default_num_requested: " + n + "\n",
            "    batch:\n      max_entries: 50\n      queue_maxsize: 100\n");
    scenario.receiver().faults().add(LokiFault.status(500).untilCleared());
    int total = 4000;
    scenario.pubsub().publish(LOGIN, total);

    try (RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      // the reader fills bridge and lane, then stops reading and granting credits
      // bridge + lane full: bridge (1000 entries) + lane queue (100)
      await()
          .atMost(LIMIT)
          .until(
              () ->
                  scenario.pubsub().stats(LOGIN).delivered() >= 1100
                      && scenario.receiver().requestCount() > 0);
      long delivered =
          awaitStable(() -> scenario.pubsub().stats(LOGIN).delivered(), Duration.ofMillis(500));
      long fetches = scenario.pubsub().stats(LOGIN).fetchRequests();
      // bridge (1000 entries) + lane queue (100) + one batch in the consumer (50) + one response
      // the reader holds (n) + credits in flight (n)
      long bound = 1000 + 100 + 50 + 2L * n;
      assertThat(delivered).isPositive().isLessThanOrEqualTo(bound).isLessThan(total);
      assertThat(scenario.receiver().totalEntries()).isZero();
      // no credit is granted while the pipeline is blocked
      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(5))
          .until(
              () ->
                  scenario.pubsub().stats(LOGIN).fetchRequests() == fetches
                      && scenario.pubsub().stats(LOGIN).delivered() == delivered);
      assertThat(scenario.checkpoint(LOGIN)).as("nothing committed during the outage").isEmpty();

      scenario.receiver().faults().clear();
      awaitReceived(total, d);
      assertThat(d.stop()).as(d.stderr()).isZero();
    }
    TopicStats s = scenario.pubsub().stats(LOGIN);
    assertThat(s.maxOutstanding()).isPositive().isLessThanOrEqualTo(n);
    assertThat(s.delivered()).isEqualTo(total);
    assertThat(scenario.receiver().totalEntries()).isEqualTo(total);
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
  }

  @Test
  @DisplayName(
      "PS-3, PS-17: with a tiny bridge byte budget top-ups are deferred until the bridge drains,"
          + " never lost: every event lands and outstanding credits stay within n")
  void ps3_deferredTopUpsResumeWhenBridgeDrains() throws Exception {
    start(b -> {});
    int n = 10;
    Path cfg =
        scenario.writeConfig(
            List.of(LOGIN, SimPubSub.ACCOUNT_CDC_TOPIC),
            "    replay_preset: EARLIEST\n    default_num_requested: "
                + n
                + "\n    bridge_max_bytes: 3000\n",
            "");
    List<PublishedEvent> published = new ArrayList<>(scenario.pubsub().publish(LOGIN, 1000));
    published.addAll(scenario.pubsub().publish(SimPubSub.ACCOUNT_CDC_TOPIC, 1000));
    try (RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      awaitReceived(published.size(), d);
      awaitCheckpoint(LOGIN, published.get(999));
      awaitCheckpoint(SimPubSub.ACCOUNT_CDC_TOPIC, published.getLast());
      assertThat(d.stop()).as(d.stderr()).isZero();
    }
    assertThat(scenario.pubsub().stats(LOGIN).maxOutstanding()).isLessThanOrEqualTo(n);
    assertThat(scenario.pubsub().stats(SimPubSub.ACCOUNT_CDC_TOPIC).maxOutstanding())
        .isLessThanOrEqualTo(n);
    assertThat(scenario.receiver().totalEntries()).isEqualTo(published.size());
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
    assertThat(metrics.counterTotal("sf2loki_pubsub_stream_stalls")).isZero();
  }

  @Test
  @DisplayName(
      "PS-14, PS-11: streams dropped by the server (UNAVAILABLE, clean end) reconnect from the"
          + " in-memory position with no gap and no duplicate")
  void ps14_droppedStreamsReconnectWithoutGap() throws Exception {
    start(b -> {});
    Path cfg =
        scenario.writeConfig(
            List.of(LOGIN), "    replay_preset: EARLIEST\n    default_num_requested: 25\n", "");
    scenario
        .pubsub()
        .faults()
        .dropStreamAfter(LOGIN, 137)
        .endStreamAfter(LOGIN, 211, Status.Code.OK)
        .failNextSubscribe(LOGIN, Status.Code.UNAVAILABLE)
        .dropStreamAfter(LOGIN, 0);
    List<PublishedEvent> published = scenario.pubsub().publish(LOGIN, 1000);
    try (RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      awaitReceived(published.size(), d);
      awaitCheckpoint(LOGIN, published.getLast());
      assertThat(d.stop()).as(d.stderr()).isZero();
    }
    assertThat(scenario.receiver().totalEntries()).isEqualTo(published.size());
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
    assertThat(scenario.pubsub().stats(LOGIN).delivered()).isEqualTo(published.size());
    assertThat(metrics.counterTotal("sf2loki_pubsub_reconnects")).isGreaterThanOrEqualTo(3);
  }

  // ------------------------------------------------------------------------------ PS-13, PS-15

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Status.Code.class,
      names = {"INVALID_ARGUMENT", "FAILED_PRECONDITION", "UNKNOWN"})
  @DisplayName(
      "PS-12, PS-13, PS-15: an expired stored replay id triggers exactly one fallback"
          + " (on_invalid_replay earliest) and ingestion goes on, whatever the status")
  void ps15_expiredStoredReplayIdFallsBackOnce(Status.Code code) throws Exception {
    AtomicReference<Duration> skew = new AtomicReference<>(Duration.ofHours(-73));
    InstantSource clock = () -> Instant.now().plus(skew.get());
    start(b -> b.clock(clock).invalidReplayStatus(code));
    List<PublishedEvent> old = scenario.pubsub().publish(LOGIN, 5);
    scenario.seedCheckpoint(LOGIN, old.get(2).replayIdBase64());
    skew.set(Duration.ZERO);
    List<PublishedEvent> fresh = scenario.pubsub().publish(LOGIN, 20);
    assertThat(scenario.pubsub().retained(LOGIN)).as("the old events left retention").hasSize(20);
    Path cfg = scenario.writeConfig(List.of(LOGIN), "", "");

    try (RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      awaitReceived(fresh.size(), d);
      awaitCheckpoint(LOGIN, fresh.getLast());
      assertThat(d.stop()).as(d.stderr()).isZero();
    }
    assertThat(metrics.counterTotal("sf2loki_pubsub_replay_fallbacks")).isEqualTo(1);
    assertThat(metrics.counter("sf2loki_pubsub_replay_fallbacks").keySet())
        .singleElement()
        .satisfies(a -> assertThat(a.get(AttributeKey.stringKey("topic"))).isEqualTo(LOGIN));
    Set<String> got =
        scenario.receiver().entries().stream()
            .map(e -> e.structuredMetadata().get("replay_id"))
            .collect(Collectors.toSet());
    assertThat(got)
        .containsExactlyInAnyOrderElementsOf(
            fresh.stream().map(PublishedEvent::replayIdBase64).toList());
    // one rejected subscription, one from EARLIEST; never a loop on the rejected id
    assertThat(scenario.pubsub().stats(LOGIN).subscribes()).isEqualTo(2);
  }

  // ------------------------------------------------------------------------------ PS-2, AUTH-6

  @Test
  @DisplayName(
      "PS-2, PS-15, AUTH-6: a token expiry mid-stream re-mints and resumes at the position"
          + " reached, with no gap and no duplicate")
  void ps2_tokenExpiryMidStreamResumesWithoutGap() throws Exception {
    start(b -> {});
    Path cfg =
        scenario.writeConfig(
            List.of(LOGIN, SimPubSub.API_TOPIC),
            "    replay_preset: EARLIEST\n    default_num_requested: 20\n",
            "    batch:\n      max_entries: 100\n");
    List<PublishedEvent> published = new ArrayList<>(scenario.pubsub().publish(LOGIN, 1500));
    published.addAll(scenario.pubsub().publish(SimPubSub.API_TOPIC, 1500));
    long tokensBefore = scenario.org().callCount(SimEndpoint.TOKEN);
    AtomicInteger pushes = new AtomicInteger();
    AtomicInteger expiredAtStreams = new AtomicInteger(-1);
    AtomicLong receivedAtExpiry = new AtomicLong(-1);
    UnaryOperator<Sink> expireOnSecondPush =
        sink ->
            new Sink() {
              @Override
              public PushResult push(Batch b, boolean single, StopSignal s)
                  throws RetryableSinkException, PermanentSinkException, InterruptedException {
                PushResult r = sink.push(b, single, s);
                if (pushes.incrementAndGet() == 2) {
                  expiredAtStreams.set(scenario.pubsub().openStreams());
                  receivedAtExpiry.set(scenario.receiver().totalEntries());
                  scenario.org().expireAllTokens(); // ends the open streams: UNAUTHENTICATED
                }
                return r;
              }

              @Override
              public void close() {
                sink.close();
              }
            };

    try (RunningDaemon d = RunningDaemon.start(cfg, metrics, expireOnSecondPush)) {
      awaitReceived(published.size(), d);
      awaitCheckpoint(LOGIN, published.get(1499));
      awaitCheckpoint(SimPubSub.API_TOPIC, published.getLast());
      assertThat(d.stop()).as(d.stderr()).isZero();
    }
    assertThat(expiredAtStreams.get()).as("streams were open at expiry").isPositive();
    assertThat(receivedAtExpiry.get())
        .as("the expiry happened mid-stream")
        .isPositive()
        .isLessThan(published.size());
    assertThat(scenario.org().callCount(SimEndpoint.TOKEN))
        .as("a fresh token was minted")
        .isGreaterThan(tokensBefore + 1);
    List<RecordedCall> subscribes =
        scenario.pubsub().calls().stream().filter(c -> c.method().equals("Subscribe")).toList();
    assertThat(subscribes.stream().map(c -> c.metadata().get("accesstoken")).distinct().count())
        .as("resubscribed with the re-minted token")
        .isGreaterThanOrEqualTo(2);
    assertThat(scenario.receiver().totalEntries()).isEqualTo(published.size());
    assertThat(scenario.receiver().duplicatesDropped())
        .as("PS-12: reconnects resume at the in-memory position")
        .isZero();
  }

  // ------------------------------------------------------------------------------ PS-7, PS-11

  @Test
  @DisplayName(
      "PS-7, PS-11, SRC-3: keepalives move the stored replay id of an idle topic to the latest"
          + " id without shipping anything")
  void ps11_keepalivesAdvanceIdleTopic() throws Exception {
    start(b -> b.keepaliveInterval(Duration.ofMillis(100)).keepaliveTick(Duration.ofMillis(20)));
    List<PublishedEvent> before = scenario.pubsub().publish(LOGIN, 3);
    Path cfg = scenario.writeConfig(List.of(LOGIN), "", "");
    assertThat(scenario.checkpoint(LOGIN)).isEmpty();

    try (RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      // CUSTOM preset without a stored id starts at LATEST: nothing is owed, the topic is idle
      awaitCheckpoint(LOGIN, before.getLast());
      assertThat(d.stop()).as(d.stderr()).isZero();
    }
    TopicStats s = scenario.pubsub().stats(LOGIN);
    assertThat(s.delivered()).isZero();
    assertThat(s.keepalives()).isPositive();
    assertThat(scenario.receiver().totalEntries()).as("SRC-3: never sent to Loki").isZero();

    // a second run resumes at the keepalive position: only events published after it arrive
    List<PublishedEvent> after = scenario.pubsub().publish(LOGIN, 4);
    try (RunningDaemon d = RunningDaemon.start(cfg, new RetainingMetricReader())) {
      awaitReceived(after.size(), d);
      awaitCheckpoint(LOGIN, after.getLast());
      assertThat(d.stop()).as(d.stderr()).isZero();
    }
    assertThat(scenario.receiver().entries())
        .map(e -> e.structuredMetadata().get("replay_id"))
        .containsExactlyInAnyOrderElementsOf(
            after.stream().map(PublishedEvent::replayIdBase64).toList());
  }

  // ------------------------------------------------------------------------------ PS-6, OBS-8

  /** Runs {@code action} on the logging thread when an event with {@code message} is logged. */
  private static final class OnLog extends AppenderBase<ILoggingEvent> {
    private final String message;
    private final java.util.function.Predicate<ILoggingEvent> when;
    private final Runnable action;

    OnLog(String message, java.util.function.Predicate<ILoggingEvent> when, Runnable action) {
      this.message = message;
      this.when = when;
      this.action = action;
    }

    @Override
    protected void append(ILoggingEvent e) {
      if (message.equals(e.getMessage()) && when.test(e)) {
        action.run();
      }
    }
  }

  private static HttpResponse<String> readyz(int port) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }

  @Test
  @DisplayName(
      "PS-6, PS-14, OBS-8: an undecodable event holds its topic visibly (readyz degraded,"
          + " stream_up 0) and is skipped after 5 failed connections with a WARN naming topic,"
          + " replay id and schema id; later events land and readiness recovers")
  void ps6_undecodableEventStallsVisiblyThenIsSkipped() throws Exception {
    start(b -> {});
    Path cfg = scenario.writeConfig(List.of(LOGIN), "    replay_preset: EARLIEST\n", "");
    List<PublishedEvent> good1 = scenario.pubsub().publish(LOGIN, 50);
    PublishedEvent poison = scenario.pubsub().publishPoison(LOGIN);
    List<PublishedEvent> good2 = scenario.pubsub().publish(LOGIN, 50);

    Logger readerLog = (Logger) LoggerFactory.getLogger(TopicReader.class);
    // after the first failed connection the simulator goes silent for the topic, so the hold
    // lasts until the test has observed it (the reconnect backoff is 2 ms)
    OnLog silenceAfterFirst =
        new OnLog(
            "pubsub event cannot be decoded; reconnecting from before it",
            e -> Integer.valueOf(1).equals(LogCapture.keyValues(e).get("attempt")),
            () -> scenario.pubsub().faults().silence(LOGIN));
    silenceAfterFirst.start();
    readerLog.addAppender(silenceAfterFirst);
    try (LogCapture logs = LogCapture.of(TopicReader.class);
        RunningDaemon d = RunningDaemon.start(cfg, metrics)) {
      awaitReceived(good1.size(), d);
      await().atMost(LIMIT).until(() -> scenario.pubsub().faults().isSilent(LOGIN));
      awaitCheckpoint(LOGIN, good1.getLast());
      int port = d.daemon().healthPort();
      HttpResponse<String> held = readyz(port);
      assertThat(held.statusCode()).isEqualTo(503);
      assertThat(held.body()).isEqualTo("degraded: topic " + LOGIN + " cannot decode events");
      assertThat(gauge("sf2loki_pubsub_stream_up", LOGIN)).isEqualTo(0.0);
      assertThat(scenario.receiver().totalEntries())
          .as("nothing after the undecodable event is committed or shipped")
          .isEqualTo(good1.size());

      scenario.pubsub().faults().unsilence(LOGIN);
      awaitReceived(good1.size() + good2.size(), d);
      awaitCheckpoint(LOGIN, good2.getLast());
      await()
          .atMost(LIMIT)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> readyz(port).statusCode() == 200);
      assertThat(readyz(port).body()).isEqualTo("ready");
      assertThat(gauge("sf2loki_pubsub_stream_up", LOGIN)).isEqualTo(1.0);

      List<ILoggingEvent> skipped = logs.events(Level.WARN, "pubsub event skipped: cannot decode");
      assertThat(skipped).hasSize(1);
      assertThat(LogCapture.keyValues(skipped.getFirst()))
          .containsEntry("topic", LOGIN)
          .containsEntry("replay_id", poison.replayIdBase64())
          .containsEntry("schema_id", poison.schemaId());
      assertThat(
              logs.events(
                  Level.WARN, "pubsub event cannot be decoded; reconnecting from before it"))
          .as("four failed connections before the fifth skips")
          .hasSize(4);
      assertThat(d.stop()).as(d.stderr()).isZero();
    } finally {
      readerLog.detachAppender(silenceAfterFirst);
    }
    assertThat(metrics.counterTotal("sf2loki_decode_errors")).isEqualTo(5);
    List<ReceivedEntry> got = scenario.receiver().entries();
    assertThat(got).hasSize(100);
    assertThat(got)
        .map(e -> e.structuredMetadata().get("replay_id"))
        .doesNotContain(poison.replayIdBase64());
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
  }
}
