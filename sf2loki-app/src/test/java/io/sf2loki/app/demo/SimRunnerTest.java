package io.sf2loki.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.cli.SimOptions;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.sim.pubsub.SimServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimRunnerTest {
  @TempDir Path dir;

  @Test
  @DisplayName(
      "FEAT-18: sim serves the org, Pub/Sub and a receiver until stopped, and prints a"
          + " configuration that the loader accepts and that points at them")
  void feat18_printsAValidConfigAndStopsCleanly() throws Exception {
    CountDownLatch bannerDone = new CountDownLatch(1);
    ByteArrayOutputStream bytes =
        new ByteArrayOutputStream() {
          @Override
          public synchronized void flush() {
            if (toString(StandardCharsets.UTF_8).contains("stop with Ctrl-C")) {
              bannerDone.countDown();
            }
          }
        };
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    StopSignal stop = new StopSignal();
    SimOptions opts = new SimOptions(0, 0, 40, SimOptions.FaultProfile.NONE, OptionalInt.of(0));
    CompletableFuture<Integer> status =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new SimRunner(out).run(opts, stop);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(bannerDone.await(30, TimeUnit.SECONDS)).isTrue();
    String text = bytes.toString(StandardCharsets.UTF_8);
    String yaml = text.substring(text.indexOf("salesforce:"), text.indexOf("stop with Ctrl-C"));
    Path cfgFile = dir.resolve("sim.yaml");
    Files.writeString(cfgFile, yaml);
    Sf2lokiConfig cfg = new ConfigLoader().load(cfgFile, Map.of());
    var ps = cfg.orgs().getFirst().sources().pubsub();
    assertThat(ps.tls()).isFalse();
    assertThat(ps.topics()).contains("/event/LoginEventStream", "/data/AccountChangeEvent");
    assertThat(ps.endpoint()).startsWith("127.0.0.1:");
    assertThat(cfg.sink().loki().url().toString()).contains("/loki/api/v1/push");
    assertThat(status).isNotDone();
    stop.stop();
    assertThat(status.get(10, TimeUnit.SECONDS)).isZero();
  }

  @Test
  @DisplayName("FEAT-18: every fault profile injects without failing the servers")
  void feat18_faultProfilesInject() throws Exception {
    try (SimServers servers =
        SimServers.start(new SimServers.Ports(0, 0, -1), o -> {}, p -> {}, l -> {})) {
      assertThat(servers.loki()).isNull();
      for (SimOptions.FaultProfile p : SimOptions.FaultProfile.values()) {
        SimRunner.inject(p, servers);
      }
      String first = servers.pubsub().topics().getFirst();
      assertThat(servers.pubsub().faults().isSilent(first)).isTrue(); // stream-stalls toggled on
      SimRunner.inject(SimOptions.FaultProfile.STREAM_STALLS, servers);
      assertThat(servers.pubsub().faults().isSilent(first)).isFalse();
    }
  }
}
