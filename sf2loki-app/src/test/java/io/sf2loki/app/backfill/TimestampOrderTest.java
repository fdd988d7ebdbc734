package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TimestampOrderTest {
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "");

  /** A file of entries with the given epoch seconds; line = its position. */
  private static List<LogEntry> file(long... seconds) {
    List<LogEntry> out = new ArrayList<>();
    for (int i = 0; i < seconds.length; i++) {
      out.add(LogEntry.of(Instant.ofEpochSecond(seconds[i]), Map.of(), "row" + i, Map.of(), TOKEN));
    }
    return out;
  }

  /** Opens a fresh pass over {@code entries}, counting the opens. */
  private static final class Fake implements TimestampOrder.Opener {
    final List<LogEntry> entries;
    int opens;

    Fake(List<LogEntry> entries) {
      this.entries = entries;
    }

    @Override
    public TimestampOrder.Source open() {
      opens++;
      return new TimestampOrder.Source() {
        int at;

        @Override
        public List<LogEntry> next(int max) {
          List<LogEntry> out =
              List.copyOf(entries.subList(at, Math.min(entries.size(), at + Math.min(max, 3))));
          at += out.size();
          return out;
        }

        @Override
        public long rowsRead() {
          return at;
        }

        @Override
        public void close() {}
      };
    }
  }

  private static List<String> lines(List<LogEntry> entries) {
    return entries.stream().map(LogEntry::line).toList();
  }

  @Test
  @DisplayName(
      "BF-8, BF-16: an out-of-order file is emitted in stable timestamp order, window by window")
  void bf8_outOfOrderFileEmittedInTimestampOrder() throws Exception {
    Fake f = new Fake(file(50, 10, 30, 10, 40, 20, 30, 5));
    List<LogEntry> out = new ArrayList<>();
    TimestampOrder order = new TimestampOrder(3);

    long rows = order.emit(f, out::add);

    assertThat(rows).isEqualTo(8);
    // ties keep file order: row1 before row3 (t=10), row2 before row6 (t=30)
    assertThat(lines(out))
        .containsExactly("row7", "row1", "row3", "row5", "row2", "row6", "row4", "row0");
    assertThat(order.passes()).isEqualTo(1 + 3); // index pass + ceil(8 / 3) windows
    assertThat(f.opens).isEqualTo(4);
  }

  @Test
  @DisplayName(
      "BF-16: a file already in timestamp order takes one index pass and one emitting pass")
  void bf8_sortedFileTwoPasses() throws Exception {
    Fake f = new Fake(file(1, 2, 2, 3, 9));
    List<LogEntry> out = new ArrayList<>();
    TimestampOrder order = new TimestampOrder(2);

    order.emit(f, out::add);

    assertThat(lines(out)).containsExactly("row0", "row1", "row2", "row3", "row4");
    assertThat(order.passes()).isEqualTo(2);
  }

  @Test
  @DisplayName(
      "BF-8, BF-16: --ingest-timestamps emits as read in one pass; an empty file emits nothing")
  void bf8_ingestModeAsReadAndEmptyFile() throws Exception {
    List<LogEntry> out = new ArrayList<>();
    TimestampOrder order = new TimestampOrder(2);
    order.emitAsRead(new Fake(file(3, 1, 2)), out::add);
    assertThat(lines(out)).containsExactly("row0", "row1", "row2");
    assertThat(order.passes()).isEqualTo(1);

    out.clear();
    assertThat(order.emit(new Fake(file()), out::add)).isZero();
    assertThat(out).isEmpty();
    assertThat(order.passes()).isEqualTo(1);
  }

  @Test
  @DisplayName("BF-8, BF-6: a large shuffled file comes out sorted and complete")
  void bf8_randomFileSortedAndComplete() throws Exception {
    Random r = new Random(7);
    long[] secs = new long[5_000];
    for (int i = 0; i < secs.length; i++) {
      secs[i] = r.nextInt(1_000);
    }
    List<LogEntry> out = new ArrayList<>();
    new TimestampOrder(700).emit(new Fake(file(secs)), out::add);

    assertThat(out).hasSize(secs.length);
    assertThat(out).isSortedAccordingTo((a, b) -> a.timestamp().compareTo(b.timestamp()));
    assertThat(lines(out)).doesNotHaveDuplicates();
  }
}
