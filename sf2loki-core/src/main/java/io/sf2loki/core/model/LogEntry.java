package io.sf2loki.core.model;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One Loki entry plus the cursor it carries (SPEC SRC-1).
 *
 * <p>A <em>real</em> entry carries data; a <em>checkpoint-only</em> entry ({@link
 * #checkpointOnly()} true) carries only {@link #checkpoint()} and is never sent to Loki (SRC-3,
 * PIPE-6). The UTF-8 byte length of {@link #line()} is computed once, at construction, and kept in
 * {@link #lineBytes()}; {@link #withLine(String)} yields a new entry with its own length.
 *
 * @param timestamp event time, nanosecond precision, UTC
 * @param labels stream labels (unmodifiable; empty for checkpoint-only entries)
 * @param line the log line (empty for checkpoint-only entries)
 * @param structuredMetadata Loki structured metadata (unmodifiable)
 * @param checkpoint the cursor position committed once this entry was delivered or dropped
 * @param checkpointOnly whether this entry carries only a cursor
 * @param lineBytes UTF-8 byte length of {@code line}
 */
public record LogEntry(
    Instant timestamp,
    Map<String, String> labels,
    String line,
    Map<String, String> structuredMetadata,
    CheckpointToken checkpoint,
    boolean checkpointOnly,
    int lineBytes) {

  public LogEntry {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(line, "line");
    Objects.requireNonNull(checkpoint, "checkpoint");
    labels = labels == null ? Map.of() : labels;
    structuredMetadata = structuredMetadata == null ? Map.of() : structuredMetadata;
  }

  /**
   * Creates a real entry, computing the line's UTF-8 length once.
   *
   * @throws NullPointerException if any argument is null
   */
  public static LogEntry of(
      Instant timestamp,
      Map<String, String> labels,
      String line,
      Map<String, String> structuredMetadata,
      CheckpointToken checkpoint) {
    return new LogEntry(
        timestamp, labels, line, structuredMetadata, checkpoint, false, utf8Length(line));
  }

  /** Creates a checkpoint-only entry (SRC-3): no labels, line or metadata. */
  public static LogEntry checkpointOnly(CheckpointToken checkpoint) {
    return new LogEntry(Instant.EPOCH, Map.of(), "", Map.of(), checkpoint, true, 0);
  }

  /** Returns a copy with a new line (and its freshly computed UTF-8 length). */
  public LogEntry withLine(String newLine) {
    return new LogEntry(
        timestamp, labels, newLine, structuredMetadata, checkpoint, false, utf8Length(newLine));
  }

  /** Returns a copy with other labels. */
  public LogEntry withLabels(Map<String, String> newLabels) {
    return new LogEntry(
        timestamp, newLabels, line, structuredMetadata, checkpoint, checkpointOnly, lineBytes);
  }

  /** Returns a copy with other structured metadata. */
  public LogEntry withStructuredMetadata(Map<String, String> metadata) {
    return new LogEntry(timestamp, labels, line, metadata, checkpoint, checkpointOnly, lineBytes);
  }

  /** Returns a copy with another timestamp. */
  public LogEntry withTimestamp(Instant newTimestamp) {
    return new LogEntry(
        newTimestamp, labels, line, structuredMetadata, checkpoint, checkpointOnly, lineBytes);
  }

  /**
   * UTF-8 byte length of a string without allocating the encoded bytes.
   *
   * @param s any string (unpaired surrogates count as one replacement byte sequence of 3 bytes)
   * @return the number of bytes {@code s.getBytes(UTF_8)} would produce
   */
  public static int utf8Length(String s) {
    int n = s.length();
    int ascii = 0;
    while (ascii < n && s.charAt(ascii) < 0x80) { // tight scan: most lines are ASCII
      ascii++;
    }
    if (ascii == n) {
      return n;
    }
    long bytes = n;
    for (int i = ascii; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 2; // 4 bytes for 2 chars
        i++;
      } else if (Character.isSurrogate(c)) {
        // unpaired surrogate: String.getBytes(UTF_8) writes '?' (1 byte)
      } else {
        bytes += 2;
      }
    }
    return (int) Math.min(Integer.MAX_VALUE, bytes);
  }

  /** Convenience for tests and encoders: the line as UTF-8 bytes. */
  public byte[] lineUtf8() {
    return line.getBytes(StandardCharsets.UTF_8);
  }
}
