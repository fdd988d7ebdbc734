package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A stop signal during startup ends the daemon promptly with exit 0 (CLI-3). */
class StartupStopTest {
  @Test
  @DisplayName(
      "CLI-3/AUTH-9: SIGTERM while the startup auth probe waits on an unresponsive token endpoint"
          + " exits 0 at once, not after the probe's timeouts and retries")
  void stopDuringAuthProbe() throws Exception {
    List<Socket> accepted = new CopyOnWriteArrayList<>();
    CountDownLatch called = new CountDownLatch(1);
    try (DemoScenario s = DemoScenario.start(10, false, true, Instant.now());
        ServerSocket hang = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual()
          .start(
              () -> {
                try {
                  while (true) {
                    accepted.add(hang.accept()); // never answers
                    called.countDown();
                  }
                } catch (Exception e) {
                  // closed
                }
              });
      Path cfgFile =
          ConfigText.read(s.writeConfig(s.receiver().pushUrl(), s.dir().resolve("state.json")))
              .replace(
                  "login_url: \"" + s.org().instanceUrl() + "\"",
                  "login_url: \"http://127.0.0.1:" + hang.getLocalPort() + "\"")
              .writeTo(s.dir().resolve("hang.yaml"));
      Sf2lokiConfig cfg = new ConfigLoader().load(cfgFile, Map.of());
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Daemon daemon =
          new Daemon(
              cfg,
              new DaemonOptions(false, null, UnaryOperator.identity(), TimeSource.system()),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      StopSignal stop = new StopSignal();
      FutureTask<Integer> task = new FutureTask<>(() -> daemon.run(stop));
      Thread t = Thread.ofPlatform().name("startup-stop-daemon").start(task);
      try {
        assertThat(called.await(20, TimeUnit.SECONDS)).as("token endpoint called").isTrue();
        long t0 = System.nanoTime();
        stop.stop();
        int status = task.get(10, TimeUnit.SECONDS);
        assertThat(status).isZero();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5_000);
        assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("authentication failed");
      } finally {
        hang.close();
        for (Socket c : accepted) {
          c.close();
        }
        t.join(60_000);
      }
    }
  }
}
