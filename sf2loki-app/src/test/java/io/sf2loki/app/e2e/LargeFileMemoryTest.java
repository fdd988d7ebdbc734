package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Memory bound of the EventLogFile path (issue acceptance; SPEC ELF-8 spool, PIPE-3 bounded queue):
 * a generated EventLogFile of about 1 GiB is ingested by the real daemon running in a child JVM
 * with {@code -Xmx256m}; the child reports its peak RSS. Tagged {@code large}: run with {@code
 * ./mvnw -B verify -Plarge}. Override the size with {@code -Dsf2loki.large.bytes=N}.
 */
@Tag("large")
class LargeFileMemoryTest {
  private static final Pattern HWM = Pattern.compile("VmHWM: (\\d+) kB");

  @Test
  @DisplayName("ELF-8, PIPE-3: a 1 GiB EventLogFile ingests with -Xmx256m within 512 MiB RSS")
  void elf8_oneGibFileWithSmallHeap() throws Exception {
    long targetBytes = Long.getLong("sf2loki.large.bytes", 1L << 30);
    AtomicLong bodyBytes = new AtomicLong();
    AtomicLong requests = new AtomicLong();
    HttpServer loki = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    loki.setExecutor(Executors.newFixedThreadPool(2));
    loki.createContext(
        "/loki/api/v1/push",
        ex -> {
          try (InputStream in = ex.getRequestBody()) {
            bodyBytes.addAndGet(in.transferTo(java.io.OutputStream.nullOutputStream()));
          }
          requests.incrementAndGet();
          ex.sendResponseHeaders(204, -1);
          ex.close();
        });
    loki.start();
    Instant now = Instant.now();
    try (DemoScenario scenario = DemoScenario.start(1, false, false, now)) {
      // size the generated file: average row bytes from a sample of rows
      Instant logDate = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(6));
      GeneratedLogFile probe =
          scenario
              .org()
              .addGeneratedLogFile("API", "Hourly", logDate, logDate.plusSeconds(3700), 2000, 7);
      long rows = Math.max(1, targetBytes * 2000 / probe.length());
      scenario.org().removeLogFile(probe.id());
      GeneratedLogFile big =
          scenario
              .org()
              .addGeneratedLogFile("API", "Hourly", logDate, logDate.plusSeconds(3900), rows, 11);
      System.out.printf("large file: %d rows, %d bytes%n", rows, big.length());
      Path state = scenario.dir().resolve("state.json");
      Path cfg =
          scenario.writeConfig(
              "http://127.0.0.1:" + loki.getAddress().getPort() + "/loki/api/v1/push", state);

      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xmx256m");
      cmd.add("--enable-native-access=ALL-UNNAMED");
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(LargeRunMain.class.getName());
      cmd.add(cfg.toString());
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out;
      try (InputStream in = p.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(p.waitFor(20, TimeUnit.MINUTES)).isTrue();
      System.out.println(out);
      System.out.printf(
          "receiver: %d push requests, %d compressed body bytes%n",
          requests.get(), bodyBytes.get());
      assertThat(p.exitValue()).as(out).isZero();
      Matcher m = HWM.matcher(out);
      assertThat(m.find()).as(out).isTrue();
      long peakKib = Long.parseLong(m.group(1));
      System.out.printf("peak RSS of the daemon: %.1f MiB%n", peakKib / 1024.0);
      assertThat(peakKib).isLessThanOrEqualTo(512L * 1024);
      try (var store = new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
        assertThat(store.snapshot().get("eventlogfile:API")).contains(big.id());
      }
    } finally {
      loki.stop(0);
    }
  }
}
