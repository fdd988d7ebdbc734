package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.Await;
import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.ReceivedEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 part 2 end to end: late Hourly EventLogFiles (3–6 h behind) reach streams that already
 * moved on, against a receiver enforcing a 30-minute out-of-order window with Loki's partial
 * acceptance and at most 10 listed rejections (SINK-13, SINK-15, SINK-16).
 */
class LateDataEndToEndTest {
  private static final int ROWS = 150;
  private static final List<String> TYPES = List.of("Login", "API", "URI");

  private static LokiReceiver strictLoki() throws java.io.IOException {
    return LokiReceiver.builder()
        .outOfOrderWindow(Duration.ofMinutes(30))
        .creationGracePeriod(Duration.ofMinutes(10))
        .rejectOlderThan(Duration.ofHours(168))
        .ingesterErrors(true)
        .start();
  }

  /** The demo configuration with a 1 s poll, the sink's window set to Loki's 30 min. */
  private static Path config(DemoScenario s, LokiReceiver loki, String extraSink) throws Exception {
    Path cfg = s.writeConfig(loki.pushUrl(), s.dir().resolve("state/state.json"));
    return ConfigText.read(cfg)
        .replace("    interval: Hourly\n", "    interval: Hourly\n    poll_interval: 1s\n")
        .insertAfter(
            "    structured_metadata_fields: [USER_ID, CLIENT_IP, REQUEST_ID, URI]",
            "    out_of_order_window: 30m\n" + extraSink)
        .writeTo(cfg);
  }

  /** Three late files per type, LogDate 5–7 h ago (3–6 h behind the streams), created just now. */
  private static long addLateFiles(DemoScenario s, Instant now) {
    Instant hour = now.truncatedTo(ChronoUnit.HOURS);
    long rows = 0;
    long seed = 1000;
    for (String type : TYPES) {
      for (int h = 7; h >= 5; h--) {
        Instant logDate = hour.minus(Duration.ofHours(h));
        rows +=
            s.org()
                .addGeneratedLogFile(
                    type, "Hourly", logDate, now.minus(Duration.ofMinutes(6)), ROWS, seed++)
                .rowCount();
      }
    }
    return rows;
  }

  /** What the receiver holds, per original row: (labels without late, line) → live/late counts. */
  private record Stored(Map<List<Object>, Integer> live, Map<List<Object>, Integer> late) {
    static Stored of(LokiReceiver loki) {
      Map<List<Object>, Integer> live = new HashMap<>();
      Map<List<Object>, Integer> late = new HashMap<>();
      for (ReceivedEntry e : loki.entries()) {
        Map<String, String> labels = new HashMap<>(e.labels());
        boolean isLate = "true".equals(labels.remove("late"));
        String ts = isLate ? e.structuredMetadata().get("event_time") : e.timestamp().toString();
        List<Object> key = List.of(labels, e.line(), Instant.parse(ts));
        (isLate ? late : live).merge(key, 1, Integer::sum);
      }
      return new Stored(live, late);
    }

    Set<List<Object>> rows() {
      Set<List<Object>> all = new HashSet<>(live.keySet());
      all.addAll(late.keySet());
      return all;
    }

    /** Rows stored in both a live and a late stream. */
    long inBoth() {
      return live.keySet().stream().filter(late::containsKey).count();
    }

    /** Stored entries beyond one per row. */
    long extraCopies() {
      long stored =
          live.values().stream().mapToLong(Integer::longValue).sum()
              + late.values().stream().mapToLong(Integer::longValue).sum();
      return stored - rows().size();
    }
  }

  private static void await(String what, Duration limit, BooleanSupplier cond)
      throws InterruptedException {
    Await.until(what, limit, cond);
  }

  @Test
  @DisplayName(
      "SINK-13, SINK-15, SINK-16: late Hourly files 3–6 h behind advanced streams, Loki window"
          + " 30 min: 0 rows lost, 0 rows in both a live and a late stream, ≤ 1.10 entries per row")
  void lateFilesIntoAdvancedStreams() throws Exception {
    Instant now = Instant.now();
    try (DemoScenario s = DemoScenario.start(ROWS, false, false, now);
        LokiReceiver loki = strictLoki()) {
      long firstWave = s.expectedRows();
      RetainingMetricReader reader = new RetainingMetricReader();
      try (RunningDaemon d = RunningDaemon.start(config(s, loki, ""), reader)) {
        await(
            "the on-time files land",
            Duration.ofSeconds(60),
            () -> loki.totalEntries() >= firstWave);
        long late = addLateFiles(s, now);
        long total = firstWave + late;
        await(
            "the late files land",
            Duration.ofSeconds(60),
            () -> Stored.of(loki).rows().size() >= total);
        assertThat(d.stop()).isZero();

        Stored st = Stored.of(loki);
        double perRow = (double) loki.receivedEntries() / total;
        System.out.printf(
            "late-data e2e: rows=%d received=%d per_row=%.3f in_both=%d extra=%d dups=%d"
                + " routed=%d rejected=%d resent=%d fallbacks=%d%n",
            total,
            loki.receivedEntries(),
            perRow,
            st.inBoth(),
            st.extraCopies(),
            loki.duplicatesDropped(),
            reader.counterTotal("sf2loki_loki_entries_restamped", "stage", "routed"),
            reader.counterTotal("sf2loki_loki_entries_restamped", "stage", "rejected"),
            reader.counterTotal("sf2loki_loki_entries_resent"),
            reader.counterTotal("sf2loki_loki_partial_acceptance_fallbacks"));
        assertThat(st.rows()).hasSize((int) total); // nothing lost
        assertThat(st.inBoth()).isZero();
        assertThat(st.extraCopies()).isZero();
        assertThat(perRow).isLessThanOrEqualTo(1.10);
        // the late files' rows, plus the hard-case file's 2024 rows (too old for Loki: 168 h)
        assertThat(loki.entries(Map.of("late", "true")))
            .filteredOn(e -> TYPES.contains(e.labels().get("event_type")))
            .hasSize((int) late);
        assertThat(reader.counterTotal("sf2loki_loki_entries_restamped", "stage", "routed"))
            .isEqualTo(late);
        assertThat(reader.counterTotal("sf2loki_loki_partial_acceptance_fallbacks")).isZero();
      }
    }
  }

  @Test
  @DisplayName(
      "SINK-15, SINK-16, PIPE-1: kill -9 while late files are shipped, then restart: nothing lost;"
          + " the restart (no marks) meets Loki's 400s and still stores no row in both streams")
  void killDuringLateFiles() throws Exception {
    Instant now = Instant.now();
    try (DemoScenario s = DemoScenario.start(ROWS, false, false, now);
        LokiReceiver loki = strictLoki()) {
      long firstWave = s.expectedRows();
      Path cfg =
          config(
              s,
              loki,
              "    egress:\n      max_lines_per_second: 100\n    batch:\n      max_entries: 20\n");
      Path work = s.dir();
      long late;
      try (ChildJvm first = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        BooleanSupplier alive =
            () -> {
              if (!first.process().isAlive()) {
                throw new AssertionError("child exited: " + first.stderr());
              }
              return true;
            };
        await(
            "the on-time files land",
            Duration.ofSeconds(90),
            () -> alive.getAsBoolean() && loki.totalEntries() >= firstWave);
        late = addLateFiles(s, now);
        await(
            "part of the late files land",
            Duration.ofSeconds(90),
            () -> alive.getAsBoolean() && loki.entries(Map.of("late", "true")).size() >= 100);
        first.process().destroyForcibly(); // SIGKILL: no shutdown, no final commit
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
      }
      long lateBeforeKill = loki.entries(Map.of("late", "true")).size();
      long total = firstWave + late;
      assertThat(lateBeforeKill).isLessThan(late); // killed mid-way
      try (ChildJvm second = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        await(
            "the restart ships the rest",
            Duration.ofSeconds(120),
            () -> {
              if (!second.process().isAlive()) {
                throw new AssertionError("child exited: " + second.stderr());
              }
              return Stored.of(loki).rows().size() >= total;
            });
        second.process().destroy();
        assertThat(second.waitFor(Duration.ofSeconds(30))).isZero();
      }
      Stored st = Stored.of(loki);
      System.out.printf(
          "late-data kill e2e: rows=%d received=%d per_row=%.3f in_both=%d extra=%d"
              + " late_before_kill=%d dups=%d%n",
          total,
          loki.receivedEntries(),
          (double) loki.receivedEntries() / total,
          st.inBoth(),
          st.extraCopies(),
          lateBeforeKill,
          loki.duplicatesDropped());
      assertThat(st.rows()).hasSize((int) total); // nothing lost
      // the late rows were never stored live (every live push of them was refused), so even the
      // restart without marks stores none in both streams; SINK-13 allows the uncommitted late
      // rows of the killed process to be restamped once more (extra late copies, bounded by them)
      assertThat(st.inBoth()).isZero();
      assertThat(st.extraCopies()).isLessThanOrEqualTo(lateBeforeKill);
      // the restart learns each stream's mark from Loki's first 400 (SINK-15): the late rows that
      // follow are routed late without a refused live push
      assertThat((double) loki.receivedEntries() / total).isLessThanOrEqualTo(1.25);
    }
  }
}
