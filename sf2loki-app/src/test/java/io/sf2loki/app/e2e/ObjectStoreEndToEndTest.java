package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.testing.FakeGcsServer;
import io.sf2loki.state.testing.S3ProxyProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code state.store: s3} and {@code gcs} end to end: the real daemon reads the simulated org and
 * ships to the Loki-compatible receiver while its checkpoints live in s3proxy (a separate process)
 * or in the GCS JSON API fake; STATE-8, STATE-11, STATE-13 through the whole product.
 */
class ObjectStoreEndToEndTest {
  private static final String BUCKET = "sf2loki-e2e";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AtomicInteger NAMES = new AtomicInteger();

  /** Real clocks; every wait (retry backoff, poll interval) lasts 2 ms. */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))));

  @TempDir static Path dir;
  private static S3ProxyProcess s3;
  private static FakeGcsServer gcs;

  private DemoScenario scenario;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** One object store as the test sees it. */
  interface Target {
    /** The {@code state:} section for object {@code name}. */
    String yaml(String name);

    String get(String name);

    void put(String name, String body);
  }

  @BeforeAll
  static void startStores() throws Exception {
    s3 = S3ProxyProcess.start(dir.resolve("s3proxy"));
    s3.createBucket(BUCKET);
    gcs = FakeGcsServer.start();
    gcs.createBucket(BUCKET);
    // the S3 store uses the default AWS credential chain: system properties come first in it
    System.setProperty("aws.accessKeyId", "local");
    System.setProperty("aws.secretAccessKey", "local");
  }

  @AfterAll
  static void stopStores() throws Exception {
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
    gcs.close();
    s3.close();
  }

  @AfterEach
  void closeScenario() {
    if (scenario != null) {
      scenario.close();
    }
  }

  static Stream<String> stores() {
    return Stream.of("s3", "gcs");
  }

  private static Target target(String kind) {
    if (kind.equals("s3")) {
      return new Target() {
        @Override
        public String yaml(String name) {
          return "state:\n  store: s3\n  min_write_interval: 0s\n  s3:\n    bucket: "
              + BUCKET
              + "\n    key: "
              + name
              + "\n    endpoint_url: \""
              + s3.endpoint()
              + "\"\n";
        }

        @Override
        public String get(String name) {
          return s3.get(BUCKET, name);
        }

        @Override
        public void put(String name, String body) {
          s3.put(BUCKET, name, body);
        }
      };
    }
    return new Target() {
      @Override
      public String yaml(String name) {
        return "state:\n  store: gcs\n  min_write_interval: 0s\n  gcs:\n    bucket: "
            + BUCKET
            + "\n    object_name: "
            + name
            + "\n    endpoint_url: \""
            + gcs.endpoint()
            + "\"\n    anonymous: true\n";
      }

      @Override
      public String get(String name) {
        return gcs.get(BUCKET, name);
      }

      @Override
      public void put(String name, String body) {
        gcs.put(BUCKET, name, body);
      }
    };
  }

  private Sf2lokiConfig config(Target t, String name, int concurrency) throws Exception {
    return config(t.yaml(name), concurrency);
  }

  private Sf2lokiConfig config(String stateYaml, int concurrency) throws Exception {
    Path file = scenario.writeConfig(scenario.receiver().pushUrl(), dir.resolve("unused.json"));
    String yaml =
        Files.readString(file)
            .replace("concurrency: 4", "concurrency: " + concurrency)
            .replace("    url: ", "    batch: {max_entries: 50}\n    url: ");
    int from = yaml.indexOf("state:\n");
    int to = yaml.indexOf("service:\n");
    Files.writeString(file, yaml.substring(0, from) + stateYaml + yaml.substring(to));
    return new ConfigLoader().load(file, Map.of());
  }

  private int runDaemon(Sf2lokiConfig cfg, UnaryOperator<Sink> decorator) {
    return new Daemon(
            cfg,
            new DaemonOptions(true, null, decorator, FAST),
            new PrintStream(err, true, StandardCharsets.UTF_8))
        .run(new StopSignal());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> document(String json) throws Exception {
    return new TreeMap<>(JSON.readValue(json, Map.class));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void state8_state11_rowsLandTheObjectHoldsTheCheckpointsAndARestartResendsNothing(String kind)
      throws Exception {
    scenario = DemoScenario.start(120, false, true, Instant.now());
    Target t = target(kind);
    String name = "e2e/state-" + NAMES.incrementAndGet() + ".json";
    Sf2lokiConfig cfg = config(t, name, 4);

    assertThat(runDaemon(cfg, UnaryOperator.identity()))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
    assertThat(scenario.receiver().entries()).hasSize((int) scenario.expectedRows());
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
    Map<String, String> doc = document(t.get(name));
    for (String type : scenario.eventTypes()) {
      assertThat(doc).containsKey("eventlogfile:" + type);
      assertThat(JSON.readTree(doc.get("eventlogfile:" + type)).path("ids").size())
          .as("every listed %s file is in the checkpoint's id window", type)
          .isEqualTo(
              (int)
                  scenario.org().logFiles().stream()
                      .filter(f -> f.eventType().equals(type))
                      .count());
    }

    assertThat(runDaemon(cfg, UnaryOperator.identity()))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
    assertThat(scenario.receiver().entries())
        .as("the restart re-sends nothing committed")
        .hasSize((int) scenario.expectedRows());
    assertThat(document(t.get(name))).isEqualTo(doc);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void state13_aSecondWriterWithoutCoordinationEndsTheProcessWithExit1(String kind)
      throws Exception {
    scenario = DemoScenario.start(120, false, true, Instant.now());
    Target t = target(kind);
    String name = "e2e/state-" + NAMES.incrementAndGet() + ".json";
    Sf2lokiConfig cfg = config(t, name, 1); // one file at a time: one commit per push
    AtomicInteger foreign = new AtomicInteger();
    // Another instance, uncoordinated, rewrites the whole object after a push of ours whenever our
    // daemon wrote since its last rewrite: each file's commit meets a foreign write, the first is
    // re-applied (STATE-13), the next one is fatal.
    UnaryOperator<Sink> secondWriter =
        sink ->
            new Sink() {
              @Override
              public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
                  throws RetryableSinkException, PermanentSinkException, InterruptedException {
                PushResult r = sink.push(batch, singleAttempt, stop);
                synchronized (foreign) {
                  String last = "{\"other:writer\":\"" + foreign.get() + "\"}";
                  if (foreign.get() == 0 || !last.equals(t.get(name))) {
                    t.put(name, "{\"other:writer\":\"" + foreign.incrementAndGet() + "\"}");
                  }
                }
                return r;
              }

              @Override
              public void close() {
                sink.close();
              }
            };

    int status = runDaemon(cfg, secondWriter);

    String stderr = err.toString(StandardCharsets.UTF_8);
    assertThat(status).as(stderr).isEqualTo(1);
    assertThat(stderr)
        .contains(
            "another writer modified the state object; is a second instance running without"
                + " coordination?");
    assertThat(document(t.get(name)))
        .as("the other writer's last document is never overwritten blindly")
        .isEqualTo(Map.of("other:writer", Integer.toString(foreign.get())));
  }

  /** Starts an outage after the first push, so the daemon's first commit meets it. */
  private static UnaryOperator<Sink> outageAfterFirstPush(
      ThrowingRunnable outage, CountDownLatch started, CountDownLatch degradedSeen) {
    AtomicInteger pushes = new AtomicInteger();
    return sink ->
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
              throws RetryableSinkException, PermanentSinkException, InterruptedException {
            if (pushes.get() >= 1) {
              // later pushes wait until the test saw the outage: a finite run must not finish
              // (and give up on the store, STATE-16) before the committer met the outage
              assertThat(degradedSeen.await(60, TimeUnit.SECONDS)).isTrue();
            }
            PushResult r = sink.push(batch, singleAttempt, stop);
            if (pushes.incrementAndGet() == 1) {
              try {
                outage.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
              started.countDown();
            }
            return r;
          }

          @Override
          public void close() {
            sink.close();
          }
        };
  }

  /** An outage action. */
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static String readyz(int port) throws Exception {
    try (HttpClient c = HttpClient.newHttpClient()) {
      return c.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    }
  }

  /**
   * Runs the finite daemon through an outage started after its first push and ended by {@code
   * recover}: the process stays up, {@code /readyz} says why, the lane is held, and after recovery
   * every row lands once.
   */
  private void runThroughOutage(
      Sf2lokiConfig cfg, ThrowingRunnable outage, ThrowingRunnable recover) throws Exception {
    RetainingMetricReader reader = new RetainingMetricReader();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch degradedSeen = new CountDownLatch(1);
    Daemon daemon =
        new Daemon(
            cfg,
            new DaemonOptions(
                true, reader, outageAfterFirstPush(outage, started, degradedSeen), FAST),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    FutureTask<Integer> run = new FutureTask<>(() -> daemon.run(new StopSignal()));
    Thread.ofPlatform().name("outage-daemon").start(run);
    assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
    Awaitility.await("readiness names the failing store")
        .atMost(Duration.ofSeconds(60))
        .until(() -> readyz(daemon.healthPort()), "degraded: checkpoint store failing"::equals);
    int atDegraded = scenario.receiver().entries().size();
    degradedSeen.countDown();
    Awaitility.await("several failed checkpoint writes")
        .atMost(Duration.ofSeconds(60))
        .until(() -> reader.counterTotal("sf2loki_checkpoint_write_errors") >= 3);
    assertThat(run.isDone()).as("the process stays up").isFalse();
    assertThat(scenario.receiver().entries().size() - atDegraded)
        .as("the lane is held: at most one more batch lands meanwhile")
        .isLessThanOrEqualTo(50);
    recover.run();
    assertThat(run.get(120, TimeUnit.SECONDS)).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(scenario.receiver().entries()).hasSize((int) scenario.expectedRows());
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
  }

  @Test
  void state16_s3proxyStoppedAndRestartedWhileRowsFlow() throws Exception {
    scenario = DemoScenario.start(120, false, true, Instant.now());
    try (S3ProxyProcess own = S3ProxyProcess.start(dir.resolve("s3proxy-outage"), true)) {
      own.createBucket(BUCKET);
      String stateYaml =
          "state:\n  store: s3\n  min_write_interval: 0s\n  s3:\n    bucket: "
              + BUCKET
              + "\n    key: outage.json\n    endpoint_url: \""
              + own.endpoint()
              + "\"\n";
      runThroughOutage(config(stateYaml, 1), own::stop, own::start);
      Map<String, String> doc = document(own.get(BUCKET, "outage.json"));
      for (String type : scenario.eventTypes()) {
        assertThat(doc).containsKey("eventlogfile:" + type);
      }
    }
  }

  @Test
  void state16_fileStoreWhoseDiskFailsWhileRowsFlow() throws Exception {
    scenario = DemoScenario.start(120, false, true, Instant.now());
    Path state = dir.resolve("outage-file/state.json");
    Path aside = dir.resolve("outage-file/state.json.aside");
    // As root, permissions do not stop writes: the state path is obstructed by a non-empty
    // directory instead (writes and reads fail with I/O errors), and cleared again to recover.
    ThrowingRunnable fail =
        () -> {
          if (Files.exists(state)) {
            Files.move(state, aside);
          }
          Files.createDirectories(state.resolve("obstruction"));
        };
    ThrowingRunnable recover =
        () -> {
          Files.delete(state.resolve("obstruction"));
          Files.delete(state);
          if (Files.exists(aside)) {
            Files.move(aside, state);
          }
        };
    String stateYaml = "state:\n  file:\n    path: \"" + state + "\"\n";
    runThroughOutage(config(stateYaml, 1), fail, recover);
    Map<String, String> doc = document(Files.readString(state));
    for (String type : scenario.eventTypes()) {
      assertThat(doc).containsKey("eventlogfile:" + type);
    }
  }
}
