package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.TimeSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Progress of a backfill (BF-13): INFO lines without a terminal, a live bar under a PTY. */
class BackfillProgressTest {
  @Test
  @DisplayName(
      "BF-13: without a TTY one INFO line every 30 s of the injected clock: files and bytes done /"
          + " total, rows/s and ETA")
  void bf13_infoLinesEvery30s() throws Exception {
    FakeTime fake = new FakeTime(Instant.parse("2026-11-01T00:00:00Z"));
    Semaphore ticks = new Semaphore(0);
    Semaphore waiting = new Semaphore(0);
    List<Duration> asked = new ArrayList<>();
    Sleeper gated =
        (d, stop) -> {
          synchronized (asked) {
            asked.add(d);
          }
          waiting.release();
          while (!ticks.tryAcquire(10, TimeUnit.MILLISECONDS)) {
            if (stop.isStopped()) {
              return false;
            }
          }
          fake.advance(d);
          return !stop.isStopped();
        };
    AtomicLong files = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    AtomicLong rows = new AtomicLong();
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LogProgress.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.INFO);
    try (LogProgress p =
        new LogProgress(
            new TimeSource(fake.wall(), fake.ticker(), gated),
            () -> new long[] {files.get(), bytes.get(), rows.get()})) {
      p.start(4, 1000);
      assertThat(waiting.tryAcquire(10, TimeUnit.SECONDS)).isTrue(); // first wait began
      files.set(1);
      bytes.set(250);
      rows.set(3000);
      ticks.release(); // 30 s pass
      assertThat(waiting.tryAcquire(10, TimeUnit.SECONDS)).isTrue(); // line logged, next wait
      assertThat(appender.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()))
          .containsExactly(
              "INFO backfill progress files=1/4 bytes=250/1000 rows=3000"
                  + " rows_per_second=100 eta=0:01:30");
      synchronized (asked) {
        assertThat(asked).containsOnly(Duration.ofSeconds(30));
      }
    } finally {
      logger.detachAppender(appender);
      logger.setLevel(null);
    }
  }

  @Test
  @DisplayName(
      "BF-13: under a pseudo-terminal (script -qfc) the backfill draws a live progress bar on"
          + " stderr with files done / total, rows/s and an ETA, then prints the summary")
  void bf13_progressBarUnderPty() throws Exception {
    try (BackfillScenario s = new BackfillScenario(250, "")) {
      Path typescript = s.sf.dir().resolve("pty.typescript");
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-XX:TieredStopAtLevel=1");
      cmd.add("-XX:+UseSerialGC");
      cmd.add("--enable-native-access=ALL-UNNAMED");
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add("io.sf2loki.app.cli.Main");
      cmd.addAll(s.args("--max-bytes-per-second", "400000")); // a few seconds of bar
      StringBuilder line = new StringBuilder();
      for (String c : cmd) {
        line.append('\'').append(c.replace("'", "'\\''")).append("' ");
      }
      ProcessBuilder pb =
          new ProcessBuilder("script", "-qfec", line.toString(), typescript.toString())
              .directory(s.sf.dir().toFile())
              .redirectErrorStream(true)
              .redirectOutput(s.sf.dir().resolve("script.out").toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("SF2LOKI_"));
      pb.environment().put("TERM", "xterm");
      Process p = pb.start();
      boolean done = p.waitFor(180, TimeUnit.SECONDS);
      if (!done) {
        p.destroyForcibly();
      }
      String ts = read(typescript);
      assertThat(done).as(ts).isTrue();
      assertThat(p.exitValue()).as(ts).isZero();
      assertThat(ts)
          .contains("backfill")
          .containsPattern("files \\d+/8")
          .contains("rows/s")
          .containsPattern("ETA \\d+:\\d\\d:\\d\\d")
          .contains("sf2loki backfill summary: files=8 ");
    }
  }

  @Test
  @DisplayName(
      "BF-13, BF-14: without a TTY the command's log lines (progress INFO, warnings) go to stderr"
          + " in the configured format; stdout carries only the report")
  void bf13_logLinesOnStderrNotStdout() throws Exception {
    try (BackfillScenario s = new BackfillScenario(20, "")) {
      List<String> args = new ArrayList<>(s.args("--dry-run"));
      int since = args.indexOf("--since") + 1;
      args.set(since, s.today.minusDays(8).toString()); // BF-3 logs a WARN for > 7 days
      try (io.sf2loki.app.e2e.support.ChildJvm c =
          io.sf2loki.app.e2e.support.ChildJvm.start(s.sf.dir(), args.toArray(String[]::new))) {
        assertThat(c.waitFor(Duration.ofSeconds(120))).as(c.stderr()).isZero();
        assertThat(c.stderr())
            .contains("level=warning")
            .contains("Loki rejects samples older than 168 h");
        for (String line : c.stdout().split("\\R")) {
          assertThat(line)
              .as("stdout: " + c.stdout())
              .matches("(type=|  file id=|sf2loki backfill dry run|SLF4J).*|");
        }
        assertThat(c.stdout()).contains("sf2loki backfill dry run: types=2 ");
      }
    }
  }

  private static String read(Path p) throws IOException {
    return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
  }
}
