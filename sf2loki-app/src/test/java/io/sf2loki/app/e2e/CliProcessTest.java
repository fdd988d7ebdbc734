package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.app.cli.Version;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real {@code sf2loki} entry point ({@code io.sf2loki.app.cli.Main}) in a child JVM: exit
 * statuses, signal handling and error output as an operator sees them. The simulated org and the
 * Loki receiver run in the test JVM on loopback.
 */
class CliProcessTest {
  /** Bound on a child that only parses arguments or configuration. */
  private static final Duration QUICK_EXIT = Duration.ofSeconds(20);

  /** {@code service.shutdown_grace} of the daemon child. */
  private static final Duration GRACE = Duration.ofSeconds(5);

  @TempDir Path work;

  @Test
  @DisplayName("CLI-2: `--version` prints `sf2loki <version>` and exits 0")
  void version() throws Exception {
    try (ChildJvm child = ChildJvm.start(work, "--version")) {
      assertThat(child.waitFor(QUICK_EXIT)).isZero();
      assertThat(child.stdout()).isEqualTo("sf2loki " + Version.get() + "\n");
      assertThat(Version.get()).isNotBlank().doesNotContain("${");
      assertThat(child.stderr()).isEmpty();
    }
  }

  @Test
  @DisplayName(
      "CLI-3, CLI-1, OBS-8: `run --config x.yaml` (option after the command) starts the daemon;"
          + " /readyz answers 200 `ready`, the rows land, and SIGTERM ends it with exit 0 (not"
          + " 143) within the shutdown grace")
  void daemonStopsCleanlyOnSigterm() throws Exception {
    try (DemoScenario s = DemoScenario.start(20, false, true, Instant.now())) {
      int port = freePort();
      Path state = s.dir().resolve("state.json");
      Path cfg =
          ConfigText.read(s.writeConfig(s.receiver().pushUrl(), state))
              .replace("health_addr: \"127.0.0.1:0\"", "health_addr: \"127.0.0.1:" + port + "\"")
              .insertAfter("service:", "  shutdown_grace: " + GRACE.toSeconds() + "s\n")
              .writeTo(s.dir().resolve("child.yaml"));
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
      HttpRequest readyz =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
              .timeout(Duration.ofSeconds(2))
              .build();

      try (ChildJvm child = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        await("GET /readyz = 200 ready")
            .atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(100))
            .ignoreExceptions()
            .failFast("child exited", () -> !child.process().isAlive())
            .untilAsserted(
                () -> {
                  HttpResponse<String> r = http.send(readyz, HttpResponse.BodyHandlers.ofString());
                  assertThat(r.statusCode()).isEqualTo(200);
                  assertThat(r.body()).isEqualTo("ready");
                });
        await("every row delivered by the child")
            .atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(100))
            .failFast("child exited", () -> !child.process().isAlive())
            .until(() -> s.receiver().totalEntries() == s.expectedRows());

        long t0 = System.nanoTime();
        child.process().destroy(); // SIGTERM on Linux
        int status = child.waitFor(GRACE.plusSeconds(10));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        assertThat(status)
            .as("exit status; stdout:\n%s\nstderr:\n%s", child.stdout(), child.stderr())
            .isZero();
        assertThat(took).isLessThan(GRACE.plusSeconds(5));
        assertThat(child.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
      }
      // the drain committed the delivered files
      try (FileCheckpointStore store =
          new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
        assertThat(store.snapshot()).containsKeys("eventlogfile:Login", "eventlogfile:URI");
      }
      assertThat(s.receiver().totalEntries()).isEqualTo(s.expectedRows());
    }
  }

  @ParameterizedTest(name = "args: {0} <file>")
  @ValueSource(strings = {"--config", "run --config"})
  @DisplayName(
      "CLI-5, CFG-4, CLI-1: a child run with an unknown configuration key exits 2 with `sf2loki:"
          + " invalid configuration:` and the dotted path on stderr, and no stack trace")
  void unknownKeyExitsTwoWithoutStackTrace(String args) throws Exception {
    try (DemoScenario s = DemoScenario.start(1, false, true, Instant.now())) {
      Path cfg =
          ConfigText.read(s.writeConfig(s.receiver().pushUrl(), s.dir().resolve("state.json")))
              .insertAfter("    interval: Hourly", "    evnt_types: [Login]\n")
              .writeTo(s.dir().resolve("bad.yaml"));
      String[] argv = (args + " " + cfg).split(" ");

      try (ChildJvm child = ChildJvm.start(work, argv)) {
        assertThat(child.waitFor(QUICK_EXIT)).isEqualTo(2);
        assertThat(child.stderr())
            .isEqualTo(
                "sf2loki: invalid configuration:\n"
                    + "  sources.eventlogfile.evnt_types: unknown configuration key (check for"
                    + " typos; see the configuration reference for valid keys)\n");
        assertThat(child.stdout()).doesNotContain("Exception").doesNotContain("\tat ");
      }
      assertThat(s.org().callCount("token")).isZero();
      assertThat(s.receiver().requestCount()).isZero();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }
}
