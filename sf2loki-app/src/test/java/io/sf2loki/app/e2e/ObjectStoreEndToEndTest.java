package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
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
    Path file = scenario.writeConfig(scenario.receiver().pushUrl(), dir.resolve("unused.json"));
    String yaml =
        Files.readString(file)
            .replace("concurrency: 4", "concurrency: " + concurrency)
            .replace("    url: ", "    batch: {max_entries: 50}\n    url: ");
    int from = yaml.indexOf("state:\n");
    int to = yaml.indexOf("service:\n");
    Files.writeString(file, yaml.substring(0, from) + t.yaml(name) + yaml.substring(to));
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
}
