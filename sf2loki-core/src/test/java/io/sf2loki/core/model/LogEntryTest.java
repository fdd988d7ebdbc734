package io.sf2loki.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LogEntryTest {
  private static final CheckpointToken TOKEN = new CheckpointToken("eventlogfile:Login", "{}");
  private static final Instant TS = Instant.parse("2024-06-05T10:00:00.123456789Z");

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static LogEntry entry(String line) {
    return LogEntry.of(TS, Map.of("source", "eventlogfile"), line, Map.of("level", "info"), TOKEN);
  }

  @Test
  @DisplayName(
      "SRC-1: the line's UTF-8 length is computed at construction and equals the encoded size")
  void src1_lineBytesEqualsEncodedLength() {
    for (String line :
        List.of(
            "",
            "ascii only",
            "caf\u00e9 \u00fc\u00df", // 2-byte code points
            "\u20ac \u4e2d\u6587", // 3-byte code points
            "emoji \ud83d\ude00 and \ud834\udd1e", // 4-byte code points (surrogate pairs)
            "\u007f\u0080\u07ff\u0800\uffff")) {
      LogEntry e = entry(line);
      assertThat(e.lineBytes()).as("length of %s", line).isEqualTo(utf8(line));
      assertThat(e.lineUtf8()).hasSize(e.lineBytes());
    }
  }

  @Test
  @DisplayName(
      "SRC-1: unpaired surrogates count exactly as String.getBytes(UTF_8) encodes them (one byte)")
  void src1_unpairedSurrogates() {
    for (String line :
        List.of(
            "lone high \ud83d here",
            "lone low \ude00 here",
            "high at end \ud83d",
            "\ude00 low at start",
            "reversed pair \ude00\ud83d",
            "two highs \ud83d\ud83d\ude00",
            "ascii prefix then é€ and \ud83d\ude00",
            "ascii prefix then a lone low \ude00 at the end")) {
      assertThat(entry(line).lineBytes()).as("length of %s", line).isEqualTo(utf8(line));
      assertThat(LogEntry.utf8Length(line)).isEqualTo(utf8(line));
    }
  }

  @Test
  @DisplayName("SRC-1: random strings of any UTF-16 units (surrogates included) measure exactly")
  void src1_randomStringsMeasureExactly() {
    Random r = new Random(20240605);
    for (int i = 0; i < 2000; i++) {
      char[] cs = new char[r.nextInt(40)];
      for (int j = 0; j < cs.length; j++) {
        cs[j] =
            switch (r.nextInt(5)) {
              case 0 -> (char) r.nextInt(0x80);
              case 1 -> (char) (0x80 + r.nextInt(0x780));
              case 2 -> (char) (0xd800 + r.nextInt(0x800)); // any surrogate, paired or not
              default -> (char) r.nextInt(0x10000);
            };
      }
      String s = new String(cs);
      assertThat(LogEntry.utf8Length(s)).as("length of %s", s).isEqualTo(utf8(s));
    }
  }

  @Test
  @DisplayName(
      "SRC-1: the stored length is carried by copies (never recomputed); withLine yields a new"
          + " entry with its own length and leaves the original unchanged")
  void src1_lengthComputedOnceWithLineRecomputes() {
    // a deliberately wrong stored length shows that copies carry the stored value
    LogEntry stored =
        new LogEntry(TS, Map.of("a", "b"), "abc", Map.of(), TOKEN, false, /* lineBytes */ 999);
    assertThat(stored.withLabels(Map.of("c", "d")).lineBytes()).isEqualTo(999);
    assertThat(stored.withTimestamp(TS.plusSeconds(1)).lineBytes()).isEqualTo(999);
    assertThat(stored.withStructuredMetadata(Map.of("level", "warn")).lineBytes()).isEqualTo(999);

    LogEntry original = entry("\u00e9\u00e9\u00e9 long line \ud83d\ude00");
    LogEntry cut = original.withLine("\u00e9\u00e9");
    assertThat(cut).isNotSameAs(original);
    assertThat(cut.line()).isEqualTo("\u00e9\u00e9");
    assertThat(cut.lineBytes()).isEqualTo(4);
    assertThat(original.lineBytes()).isEqualTo(utf8(original.line()));
    assertThat(original.line()).isEqualTo("\u00e9\u00e9\u00e9 long line \ud83d\ude00");
    // everything but the line is kept
    assertThat(cut.timestamp()).isEqualTo(TS);
    assertThat(cut.labels()).isEqualTo(original.labels());
    assertThat(cut.structuredMetadata()).isEqualTo(original.structuredMetadata());
    assertThat(cut.checkpoint()).isSameAs(TOKEN);
    assertThat(cut.checkpointOnly()).isFalse();
    // a rewrite from the stored (wrong) entry computes a fresh length
    assertThat(stored.withLine("abc").lineBytes()).isEqualTo(3);
  }

  @Test
  @DisplayName(
      "SRC-1, SRC-3: an entry holds nanosecond UTC timestamp, labels, line, metadata and token;"
          + " a checkpoint-only entry carries only its token; a batch keeps order")
  void src1_modelShape() {
    LogEntry e = entry("x");
    assertThat(e.timestamp().getNano()).isEqualTo(123_456_789);
    assertThat(e.checkpoint()).isEqualTo(new CheckpointToken("eventlogfile:Login", "{}"));
    assertThat(e.checkpointOnly()).isFalse();

    LogEntry c = LogEntry.checkpointOnly(TOKEN);
    assertThat(c.checkpointOnly()).isTrue();
    assertThat(c.labels()).isEmpty();
    assertThat(c.line()).isEmpty();
    assertThat(c.lineBytes()).isZero();
    assertThat(c.structuredMetadata()).isEmpty();

    LogEntry e2 = entry("y");
    Batch b = new Batch(List.of(e, c, e2));
    assertThat(b.entries()).containsExactly(e, c, e2);
    assertThat(b.realEntries()).containsExactly(e, e2);
  }
}
