package io.sf2loki.app.e2e.support;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A thread that reads a file checkpoint store's document (STATE-1) and a lease file (HA-9) every
 * {@code period} and checks that no checkpoint value ever moves backwards in its cursor's own
 * order: {@code __fence_epoch__} as a number (STATE-7), {@code eventlog_objects:*} by {@code
 * last_ts} and, at an equal {@code last_ts}, by a growing {@code ids} window (SRC-15, OBJ-3), and
 * {@code egress:budget} by {@code date} then {@code bytes} (EGR-6). A key without a defined order,
 * a key that disappears, or an unreadable document is a violation too. Both files are replaced by
 * atomic rename, so every read sees a whole document.
 *
 * <p>Owned by the test: {@link #start} starts the thread, {@link #close} stops and joins it.
 */
public final class StateSampler implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, String>> DOC = new TypeReference<>() {};
  private static final DateTimeFormatter SF_TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx", Locale.ROOT);

  /** The reserved fence key (STATE-7). */
  public static final String FENCE = "__fence_epoch__";

  /**
   * One reading.
   *
   * @param before wall-clock time before the state file was read
   * @param after wall-clock time after it was read
   * @param state the checkpoint document (empty while the file does not exist)
   * @param leaseHolder the lease file's {@code holder}, or "" when absent
   * @param leaseEpoch the lease file's {@code epoch}, or 0
   */
  public record Sample(
      Instant before,
      Instant after,
      Map<String, String> state,
      String leaseHolder,
      long leaseEpoch) {
    /** The store's {@code __fence_epoch__}, 0 when absent. */
    public long fence() {
      return Long.parseLong(state.getOrDefault(FENCE, "0"));
    }
  }

  private final Path stateFile;
  private final Path leaseFile;
  private final Duration period;
  private final List<Sample> samples = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private volatile boolean running = true;
  private Thread thread;

  private StateSampler(Path stateFile, Path leaseFile, Duration period) {
    this.stateFile = stateFile;
    this.leaseFile = leaseFile;
    this.period = period;
  }

  /** Starts sampling {@code stateFile} and {@code leaseFile} every {@code period}. */
  public static StateSampler start(Path stateFile, Path leaseFile, Duration period) {
    StateSampler s = new StateSampler(stateFile, leaseFile, period);
    s.thread = Thread.ofPlatform().name("state-sampler").start(s::loop);
    return s;
  }

  /** A copy of the samples so far, oldest first. */
  public synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  /** The latest sample (waits for none; null before the first). */
  public synchronized Sample latest() {
    return samples.isEmpty() ? null : samples.getLast();
  }

  /** Every ordering violation seen so far (empty when none). */
  public synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  /** Stops the thread and joins it. */
  @Override
  public void close() throws InterruptedException {
    running = false; // no interrupt: it would close a channel mid-read
    if (thread != null && !thread.join(period.plusSeconds(10))) {
      throw new IllegalStateException("state sampler did not stop");
    }
  }

  private void loop() {
    Map<String, String> previous = Map.of();
    while (running) {
      try {
        previous = sampleOnce(previous);
      } catch (IOException | RuntimeException e) {
        synchronized (this) {
          violations.add(Instant.now() + ": unreadable: " + e);
        }
      }
      try {
        Thread.sleep(period);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private Map<String, String> sampleOnce(Map<String, String> previous) throws IOException {
    Instant before = Instant.now();
    Map<String, String> state = readState();
    Instant after = Instant.now();
    JsonNode lease = readLease();
    Sample s =
        new Sample(
            before, after, state, lease.path("holder").asText(""), lease.path("epoch").asLong(0));
    List<String> found = compare(previous, state);
    synchronized (this) {
      samples.add(s);
      found.forEach(v -> violations.add(before + ": " + v));
    }
    return state;
  }

  private Map<String, String> readState() throws IOException {
    try {
      return JSON.readValue(Files.readAllBytes(stateFile), DOC);
    } catch (NoSuchFileException e) {
      return Map.of();
    }
  }

  private JsonNode readLease() throws IOException {
    try {
      return JSON.readTree(Files.readAllBytes(leaseFile));
    } catch (NoSuchFileException e) {
      return JSON.createObjectNode();
    }
  }

  /** The violations of {@code next} against {@code prev} (empty when it moved only forward). */
  static List<String> compare(Map<String, String> prev, Map<String, String> next)
      throws IOException {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : prev.entrySet()) {
      String key = e.getKey();
      String now = next.get(key);
      if (now == null) {
        out.add(key + " disappeared (was " + e.getValue() + ")");
      } else if (!now.equals(e.getValue()) && backwards(key, e.getValue(), now)) {
        out.add(key + " moved backwards: " + e.getValue() + " -> " + now);
      }
    }
    for (String key : next.keySet()) {
      if (!prev.containsKey(key) && !ordered(key)) {
        out.add(key + " has no defined order");
      }
    }
    return out;
  }

  private static boolean ordered(String key) {
    return key.equals(FENCE) || key.startsWith("eventlog_objects:") || key.equals("egress:budget");
  }

  private static boolean backwards(String key, String was, String now) throws IOException {
    if (key.equals(FENCE)) {
      return Long.parseLong(now) < Long.parseLong(was);
    }
    if (key.startsWith("eventlog_objects:")) {
      JsonNode a = JSON.readTree(was);
      JsonNode b = JSON.readTree(now);
      int c = timestamp(b.path("last_ts")).compareTo(timestamp(a.path("last_ts")));
      return c < 0 || (c == 0 && !ids(b).containsAll(ids(a)));
    }
    if (key.equals("egress:budget")) {
      JsonNode a = JSON.readTree(was);
      JsonNode b = JSON.readTree(now);
      int c = b.path("date").asText().compareTo(a.path("date").asText());
      return c < 0 || (c == 0 && b.path("bytes").asLong() < a.path("bytes").asLong());
    }
    return true; // reported as unordered when it appeared
  }

  /** The {@code last_ts} of an {@code eventlog_objects} cursor (SRC-15). */
  public static Instant lastTs(String cursor) throws IOException {
    return timestamp(JSON.readTree(cursor).path("last_ts")).toInstant();
  }

  private static OffsetDateTime timestamp(JsonNode ts) {
    return OffsetDateTime.parse(ts.asText(), SF_TS);
  }

  private static Set<String> ids(JsonNode cursor) {
    Set<String> out = new HashSet<>();
    cursor.path("ids").forEach(id -> out.add(id.toString()));
    return out;
  }
}
