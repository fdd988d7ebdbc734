package io.sf2loki.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CliTest {
  /** Records every action call. */
  static final class Recording implements CommandActions {
    final List<String> calls = new ArrayList<>();
    DemoOptions demo;
    SimOptions sim;
    Optional<String> healthAddr = Optional.empty();
    int status;
    RuntimeException toThrow;

    @Override
    public int run(Path configOrNull, boolean checkOnly) {
      calls.add("run config=" + configOrNull + " check=" + checkOnly);
      if (toThrow != null) {
        throw toThrow;
      }
      return status;
    }

    @Override
    public int demo(DemoOptions options) {
      calls.add("demo");
      demo = options;
      return status;
    }

    @Override
    public int sim(SimOptions options) {
      calls.add("sim");
      sim = options;
      return status;
    }

    @Override
    public Optional<String> configuredHealthAddr(Path configOrNull) {
      calls.add("healthAddr config=" + configOrNull);
      return healthAddr;
    }
  }

  final Recording actions = new Recording();
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();
  final Cli cli =
      new Cli(
          actions,
          new PrintWriter(out, true),
          new PrintWriter(err, true),
          new HealthProbe(Duration.ofSeconds(3)));

  @Test
  @DisplayName("CLI-2: --version prints 'sf2loki <version>' and exits 0, anywhere on the line")
  void version() {
    assertThat(cli.execute("--version")).isZero();
    assertThat(out.toString()).isEqualTo("sf2loki " + Version.get() + System.lineSeparator());
    out.getBuffer().setLength(0);
    assertThat(cli.execute("demo", "--version")).isZero();
    assertThat(out.toString().strip()).isEqualTo("sf2loki " + Version.get());
    assertThat(actions.calls).isEmpty();
  }

  @Test
  @DisplayName("CLI-3: no command runs the daemon; run is the same")
  void defaultIsRun() {
    actions.status = 0;
    assertThat(cli.execute()).isZero();
    assertThat(cli.execute("run")).isZero();
    assertThat(actions.calls)
        .containsExactly("run config=null check=false", "run config=null check=false");
  }

  @Test
  @DisplayName("CLI-1: --config is accepted before or after the command")
  void configAnywhere() {
    cli.execute("--config", "a.yaml");
    cli.execute("--config", "b.yaml", "run");
    cli.execute("run", "--config", "c.yaml");
    cli.execute("run", "--config=d.yaml", "--check");
    cli.execute("run");
    assertThat(actions.calls)
        .containsExactly(
            "run config=a.yaml check=false",
            "run config=b.yaml check=false",
            "run config=c.yaml check=false",
            "run config=d.yaml check=true",
            "run config=null check=false");
  }

  @Test
  @DisplayName("CLI-1/CLI-4: --check with no command or with run; exit status passes through")
  void check() {
    actions.status = 2;
    assertThat(cli.execute("--check", "--config", "x.yaml")).isEqualTo(2);
    assertThat(cli.execute("--config", "x.yaml", "run", "--check")).isEqualTo(2);
    assertThat(actions.calls)
        .containsExactly("run config=x.yaml check=true", "run config=x.yaml check=true");
  }

  @Test
  @DisplayName(
      "CLI-1/CLI-4: --check before the run command still only checks, never starts the daemon")
  void checkBeforeRun() {
    assertThat(cli.execute("--check", "--config", "x.yaml", "run")).isZero();
    assertThat(cli.execute("--check", "run", "--config", "y.yaml")).isZero();
    assertThat(actions.calls)
        .containsExactly("run config=x.yaml check=true", "run config=y.yaml check=true");
  }

  @Test
  @DisplayName("CLI-1: --check before demo or healthcheck is a usage error, not silently ignored")
  void checkBeforeOtherCommands() {
    assertThat(cli.execute("--check", "demo")).isEqualTo(2);
    assertThat(cli.execute("--check", "healthcheck", "--addr", "127.0.0.1:1")).isEqualTo(2);
    assertThat(err.toString()).contains("--check");
    assertThat(actions.calls).isEmpty();
  }

  @Test
  @DisplayName("CLI table: argument errors print usage to stderr and exit 2")
  void argumentErrors() {
    assertThat(cli.execute("--bogus")).isEqualTo(2);
    assertThat(err.toString()).contains("sf2loki: Unknown option: '--bogus'").contains("Usage:");
    assertThat(cli.execute("demo", "--check")).isEqualTo(2);
    assertThat(cli.execute("demo", "--duration", "ten")).isEqualTo(2);
    assertThat(cli.execute("demo", "--duration", "0s")).isEqualTo(2);
    assertThat(cli.execute("demo", "--rate", "0")).isEqualTo(2);
    assertThat(cli.execute("demo", "--loki-url", "ftp://x/y")).isEqualTo(2);
    assertThat(cli.execute("healthcheck", "--addr", "nope")).isEqualTo(2);
    assertThat(cli.execute("healthcheck", "--path", "healthz")).isEqualTo(2);
    assertThat(cli.execute("nosuchcommand")).isEqualTo(2);
    assertThat(actions.calls).isEmpty();
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void helpGoesToStdoutExitZero() {
    assertThat(cli.execute("--help")).isZero();
    assertThat(out.toString()).contains("Usage: sf2loki").contains("--config");
    out.getBuffer().setLength(0);
    assertThat(cli.execute("healthcheck", "--help")).isZero();
    assertThat(out.toString()).contains("--addr").contains("--path");
  }

  @Test
  @DisplayName(
      "CLI-5: an action that throws prints 'sf2loki: <error>' without a stack trace, exit 1")
  void crash() {
    actions.toThrow = new IllegalStateException("boom");
    assertThat(cli.execute("run")).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("sf2loki: boom" + System.lineSeparator());
  }

  @Test
  @DisplayName("FEAT-18: sim options, defaults and usage errors")
  void sim() {
    assertThat(cli.execute("sim")).isZero();
    assertThat(actions.sim)
        .isEqualTo(
            new SimOptions(
                SimOptions.DEFAULT_REST_PORT,
                SimOptions.DEFAULT_GRPC_PORT,
                SimOptions.DEFAULT_RATE,
                SimOptions.FaultProfile.NONE,
                java.util.OptionalInt.empty()));
    assertThat(
            cli.execute(
                "sim",
                "--rest-port",
                "0",
                "--grpc-port",
                "7443",
                "--rate",
                "5000",
                "--fault-profile",
                "replayid-corrupted",
                "--loki-port",
                "3100"))
        .isZero();
    assertThat(actions.sim)
        .isEqualTo(
            new SimOptions(
                0,
                7443,
                5000,
                SimOptions.FaultProfile.REPLAYID_CORRUPTED,
                java.util.OptionalInt.of(3100)));
    int calls = actions.calls.size();
    assertThat(cli.execute("sim", "--fault-profile", "chaos")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown fault profile 'chaos'").contains("auth-expiry");
    assertThat(cli.execute("sim", "--rate", "0")).isEqualTo(2);
    assertThat(cli.execute("sim", "--grpc-port", "70000")).isEqualTo(2);
    assertThat(cli.execute("--check", "sim")).isEqualTo(2);
    assertThat(actions.calls).hasSize(calls);
  }

  @Test
  @DisplayName("FEAT-17: demo options and defaults")
  void demo() {
    assertThat(cli.execute("demo")).isZero();
    assertThat(actions.demo.duration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(actions.demo.rate()).isEmpty();
    assertThat(actions.demo.lokiUrl()).isEmpty();
    assertThat(
            cli.execute(
                "demo",
                "--duration",
                "2m",
                "--rate",
                "50",
                "--loki-url",
                "http://localhost:3100/loki/api/v1/push"))
        .isZero();
    assertThat(actions.demo.duration()).isEqualTo(Duration.ofMinutes(2));
    assertThat(actions.demo.rate()).hasValue(50);
    assertThat(actions.demo.lokiUrl())
        .contains(URI.create("http://localhost:3100/loki/api/v1/push"));
    assertThat(cli.execute("demo", "--duration", "250ms")).isZero();
    assertThat(actions.demo.duration()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  @DisplayName(
      "FEAT-17: demo runs with no configuration; --config (before or after demo) is a"
          + " usage error that says so, exit 2, and the demo does not start; demo --help does not"
          + " offer --config")
  void feat17_demoRefusesConfig() {
    assertThat(cli.execute("--config", "q.yaml", "demo")).isEqualTo(2);
    assertThat(err.toString())
        .contains("sf2loki: demo takes no --config")
        .contains("--loki-url")
        .contains("Usage:");
    err.getBuffer().setLength(0);
    assertThat(cli.execute("demo", "--config=q.yaml", "--duration", "1m")).isEqualTo(2);
    assertThat(err.toString()).contains("demo takes no --config");
    assertThat(actions.calls).isEmpty();
    StringWriter help = new StringWriter();
    new Cli(actions, new PrintWriter(help), new PrintWriter(new StringWriter()), new HealthProbe())
        .execute("demo", "--help");
    assertThat(help.toString()).contains("--loki-url").doesNotContain("--config=");
  }

  @Test
  @DisplayName("CLI-12: healthcheck exits 0 on 200, 1 otherwise; default path /healthz")
  void healthcheck() throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    List<String> paths = new ArrayList<>();
    server.createContext(
        "/",
        ex -> {
          String p = ex.getRequestURI().toString();
          synchronized (paths) {
            paths.add(ex.getRequestMethod() + " " + p);
          }
          byte[] body =
              (p.equals("/healthz") ? "ok" : "not ready").getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(p.equals("/healthz") ? 200 : 503, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    server.start();
    try {
      String addr = "127.0.0.1:" + server.getAddress().getPort();
      assertThat(cli.execute("healthcheck", "--addr", addr)).isZero();
      assertThat(cli.execute("healthcheck", "--addr", addr, "--path", "/readyz")).isEqualTo(1);
      assertThat(err.toString()).contains("503 not ready");
      // default: the configured health_addr (empty host = probe loopback)
      actions.healthAddr = Optional.of(":" + server.getAddress().getPort());
      assertThat(cli.execute("--config", "c.yaml", "healthcheck")).isZero();
      assertThat(actions.calls).containsExactly("healthAddr config=c.yaml");
      synchronized (paths) {
        assertThat(paths).containsExactly("GET /healthz", "GET /readyz", "GET /healthz");
      }
    } finally {
      server.stop(0);
    }
  }

  @Test
  @DisplayName("CLI-12: healthcheck against a closed port exits 1")
  void healthcheckNoServer() throws Exception {
    int port;
    try (var s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    assertThat(cli.execute("healthcheck", "--addr", "127.0.0.1:" + port)).isEqualTo(1);
    assertThat(err.toString()).startsWith("sf2loki: healthcheck failed:");
  }
}
