package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.sim.org.SimEndpoint;
import java.nio.file.Files;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** {@code sf2loki backfill} against the simulated org and Loki receiver (issue 16 acceptance). */
class BackfillSimulatorTest {
  @Test
  @DisplayName(
      "FEAT-4, BF-14, BF-5, CLI-11: --dry-run lists exactly the files of the range with their"
          + " LogFileLength and the API calls; no download, no push, no commit; an unknown --org exits 2;"
          + " BF-4: a type with no file in the range is named in a WARN")
  void feat4_dryRunListsTheRange() throws Exception {
    try (BackfillScenario s = new BackfillScenario(50, "")) {
      BackfillScenario.Result r = s.run(s.request(true));

      assertThat(r.exit()).as(r.err()).isZero();
      long bytes = 0;
      for (String id : s.files.keySet()) {
        GeneratedLogFile f = s.files.get(id);
        if (s.inRange.contains(id)) {
          assertThat(r.out()).contains("file id=" + id + " ").contains("bytes=" + f.length());
          bytes += f.length();
        } else {
          assertThat(r.out()).doesNotContain(id);
        }
      }
      assertThat(r.out())
          .contains("type=Login files=4 ")
          .contains("type=API files=4 ")
          .contains(
              "sf2loki backfill dry run: types=2 files=8 bytes="
                  + bytes
                  + " api_calls=10 ") // one listing per type + one download per file
          .contains("nothing downloaded, pushed or committed");
      assertThat(s.sf.org().callCount(SimEndpoint.LOGFILE)).isZero();
      assertThat(s.sf.receiver().requestCount()).isZero();
      assertThat(Files.exists(s.backfillState())).isFalse();

      BackfillRequest unknownOrg =
          BackfillRequest.parse(
              s.sinceDate().toString(),
              null,
              null,
              "Daily",
              false,
              2,
              "nope",
              true,
              0,
              java.time.Instant.now());
      BackfillScenario.Result bad = s.run(unknownOrg);
      assertThat(bad.exit()).isEqualTo(2); // CLI-11: unknown org
      assertThat(bad.err()).contains("unknown org 'nope'");

      BackfillRequest typo =
          BackfillRequest.parse(
              s.sinceDate().toString(),
              null,
              "Login,Bogus",
              "Daily",
              false,
              2,
              null,
              true,
              0,
              java.time.Instant.now());
      BackfillScenario.Result warned = s.run(typo);
      assertThat(warned.exit()).isZero(); // BF-4: the other types still run
      assertThat(warned.err())
          .contains("WARN: no Daily EventLogFile of type 'Bogus'")
          .doesNotContain("type 'Login'");
    }
  }

  private static long late(BackfillScenario s) {
    return s.sf.receiver().entries().stream()
        .filter(e -> "true".equals(e.labels().get("late")))
        .count();
  }

  @Test
  @DisplayName(
      "BF-5, BF-7, BF-8, BF-10, BF-11, BF-2, BF-12, SINK-13: the run ingests every row of the range"
          + " (checked against the simulator's manifest) with backfill=\"true\" (rows too far behind"
          + " restamped late=\"true\" and counted in the summary), commits its own cursors"
          + " beside the daemon's document, prints the summary and exits 0; a rerun sends nothing")
  void bf5_ingestsEveryRowOfTheRange() throws Exception {
    try (BackfillScenario s = new BackfillScenario(250, "")) {
      BackfillScenario.Result r = s.run(s.request(false));

      assertThat(r.exit()).as(r.err()).isZero();
      Set<String> expected = s.expectedRows(s.inRange);
      List<String> received = BackfillScenario.rowsOf(s.sf.receiver().entries());
      assertThat(received).hasSize(expected.size()).doesNotHaveDuplicates();
      assertThat(new HashSet<>(received)).isEqualTo(expected);
      assertThat(s.sf.receiver().streams())
          .allSatisfy(
              l ->
                  assertThat(l)
                      .containsEntry("backfill", "true")
                      .containsEntry("source", "eventlogfile")
                      .containsKey("sf_org_id"));
      assertThat(r.out())
          .contains(
              "sf2loki backfill summary: files=8 rows_pushed="
                  + expected.size()
                  + " rows_dropped=0 bytes_pushed=")
          .contains(" api_calls=8 types_failed=0 elapsed=")
          .contains("sf2loki backfill calls: listings=2 downloads=8 total=10")
          // the twin files cover the same day as their sibling: their rows are older than the
          // stream's newest by more than the out-of-order window, so the sink routes them to the
          // late="true" stream (SINK-13) and the summary shows it
          .contains("sf2loki backfill late: rows_restamped=" + late(s) + " ");
      assertThat(late(s)).isPositive();
      assertThat(s.backfillCursors())
          .containsOnlyKeys("backfill:Daily:Login", "backfill:Daily:API");
      assertThat(s.committedFiles()).isEqualTo(s.inRange);
      assertThat(Files.exists(s.sf.dir().resolve("state/state.json"))).isFalse();

      long requests = s.sf.receiver().requestCount();
      BackfillScenario.Result again = s.run(s.request(false));
      assertThat(again.exit()).isZero();
      assertThat(again.out()).contains("files=0 rows_pushed=0");
      assertThat(s.sf.receiver().requestCount()).isEqualTo(requests);
    }
  }

  @Test
  @DisplayName(
      "BF-3: an old --since warns once per reason (beyond ELF retention; Loki's 168 h), as one WARN"
          + " log line and no second copy printed to stderr")
  void bf3_oldRangeWarnsOnce() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(Backfill.class);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    logger.addAppender(logs);
    try (BackfillScenario s = new BackfillScenario(5, "")) {
      BackfillRequest old =
          BackfillRequest.parse(
              s.today.minusDays(40).toString(),
              s.today.minusDays(38).toString(),
              null,
              "Daily",
              false,
              2,
              null,
              true,
              0,
              Instant.now());
      BackfillScenario.Result r = s.run(old);
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.err()).doesNotContain("more than 30 days").doesNotContain("168 h");
      List<String> warnings = logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
      assertThat(warnings).filteredOn(m -> m.contains("more than 30 days ago")).hasSize(1);
      assertThat(warnings).filteredOn(m -> m.contains("older than 168 h")).hasSize(1);
    } finally {
      logger.detachAppender(logs);
    }
  }

  @Test
  @DisplayName(
      "XF-10, BF-5: backfill applies the ELF transforms (a salted hash on CLIENT_IP) but never"
          + " samples: every row of the range arrives although the types sample at 1 %")
  void xf10_backfillTransformsButNeverSamples() throws Exception {
    String elf =
        "      - {name: Login, sample: 0.01}\n"
            + "      - {name: API, sample: 0.01}\n"
            + "    transforms:\n"
            + "      - {action: hash, fields: [CLIENT_IP]}\n";
    try (BackfillScenario s = new BackfillScenario(120, "", elf)) {
      BackfillScenario.Result r = s.run(s.request(false));

      assertThat(r.exit()).as(r.err()).isZero();
      Set<String> expected = s.expectedRows(s.inRange);
      List<String> received = BackfillScenario.rowsOf(s.sf.receiver().entries());
      assertThat(new HashSet<>(received)).isEqualTo(expected);
      Set<String> rawIps = new HashSet<>();
      for (String id : s.inRange) {
        var f = s.files.get(id);
        int ip = f.generator().header().indexOf("CLIENT_IP");
        if (ip >= 0) {
          f.expectedRows().forEach(row -> rawIps.add(row.get(ip)));
        }
      }
      rawIps.remove("");
      assertThat(rawIps).isNotEmpty();
      var json = new com.fasterxml.jackson.databind.ObjectMapper();
      int hashed = 0;
      for (var e : s.sf.receiver().entries()) {
        var ip = json.readTree(e.line()).path("CLIENT_IP");
        if (!ip.isMissingNode()) {
          assertThat(ip.asText()).matches("[0-9a-f]{16}").isNotIn(rawIps);
          hashed++;
        }
      }
      assertThat(hashed).isPositive();
    }
  }
}
