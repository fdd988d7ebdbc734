package io.sf2loki.app.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.state.file.FileCheckpointStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Samples the checkpoint file and the lease file every 50 ms on its own platform thread (started by
 * {@link #start()}, stopped and joined by {@link #close()}) and records every key whose position
 * moved backwards (SPEC FEAT-22) and every new lease epoch (a leadership change). Positions: the
 * simulator's replay-id sequence for {@code pubsub:*} (bytes 2–7 of its 10-byte ids), {@code
 * last_created} for {@code eventlogfile:*}, {@code last_ts} for {@code eventlog_objects:*} and
 * {@code apexlog}, the number for {@code __fence_epoch__}. Thread-safe.
 */
final class CheckpointMonitor implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter SALESFORCE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXX");

  private final Path state;
  private final Path lease;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;
  private final Map<String, Comparable<Object>> last = new HashMap<>();
  private final Set<String> allowedRewinds = new HashSet<>();
  private final List<String> violations = new ArrayList<>();
  private final List<String> rewinds = new ArrayList<>();
  private final Set<String> seenLeases = new HashSet<>();
  private final List<String> leaseRaces = new ArrayList<>();
  private long epoch = -1;
  private long lastEpoch = -1;
  private int epochChanges;
  private long samples;

  CheckpointMonitor(Path state, Path lease) {
    this.state = state;
    this.lease = lease;
    this.thread = Thread.ofPlatform().name("chaos-checkpoint-monitor").unstarted(this::loop);
  }

  void start() {
    thread.start();
  }

  private void loop() {
    try {
      do {
        sample();
      } while (!stop.await(50, TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Takes one sample now (also called by the run for a fresh view). */
  synchronized Map<String, Comparable<Object>> sample() {
    if (Files.exists(state)) {
      Map<String, String> snap;
      try (var store = new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
        snap = store.snapshot();
      } catch (RuntimeException e) {
        snap = Map.of(); // a write in progress: the next sample sees it
      }
      snap.forEach(this::observe);
    }
    observeLease();
    samples++;
    return Map.copyOf(last);
  }

  private void observe(String key, String value) {
    Comparable<Object> pos = position(key, value);
    if (pos == null) {
      return;
    }
    Comparable<Object> before = last.put(key, pos);
    if (before != null && pos.compareTo(before) < 0) {
      String what = key + ": " + before + " -> " + pos;
      if (allowedRewinds.remove(key)) {
        rewinds.add(what);
      } else {
        violations.add(what);
      }
    }
  }

  private void observeLease() {
    JsonNode doc;
    try {
      doc = JSON.readTree(lease.toFile());
    } catch (java.io.IOException e) {
      return; // absent or being replaced: next sample
    }
    if (doc == null) {
      return;
    }
    long e = doc.path("epoch").asLong(-1);
    String holder = doc.path("holder").asText("");
    if (e < lastEpoch) {
      String what = "lease epoch: " + lastEpoch + " -> " + e + " (holder " + holder + ")";
      if (seenLeases.contains(holder + "@" + e)) {
        leaseRaces.add(what);
      } else {
        violations.add(what);
      }
    } else if (e > epoch && epoch >= 0) {
      epochChanges++;
    }
    seenLeases.add(holder + "@" + e);
    lastEpoch = e;
    epoch = Math.max(epoch, e);
  }

  /** The next backwards move of {@code key} is PS-15's replay fallback, not a violation. */
  synchronized void allowRewind(String key) {
    allowedRewinds.add(key);
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  synchronized List<String> rewinds() {
    return List.copyOf(rewinds);
  }

  /** Lease-file writes of a contender overwritten by the incumbent's renewal (HA-10 races). */
  synchronized List<String> leaseRaces() {
    return List.copyOf(leaseRaces);
  }

  /** Lease epochs seen after the first one: leadership changes. */
  synchronized int epochChanges() {
    return epochChanges;
  }

  synchronized long samples() {
    return samples;
  }

  @SuppressWarnings("unchecked")
  static Comparable<Object> position(String key, String value) {
    Comparable<?> p;
    if (key.startsWith("pubsub:")) {
      byte[] b = Base64.getDecoder().decode(value);
      long seq = 0;
      for (int i = 2; i < 8 && i < b.length; i++) {
        seq = (seq << 8) | (b[i] & 0xff);
      }
      p = seq;
    } else if (key.startsWith("eventlogfile:")) {
      p = instant(value, "last_created");
    } else if (key.equals("apexlog")) {
      p = instant(value, "last_ts");
    } else if (key.startsWith("eventlog_objects:")) {
      p = instant(value, "last_ts");
    } else if (key.equals("__fence_epoch__")) {
      p = Long.parseLong(value.trim());
    } else {
      p = null;
    }
    return (Comparable<Object>) p;
  }

  private static Instant instant(String value, String field) {
    String text;
    try {
      JsonNode n = JSON.readTree(value);
      text = n.isTextual() ? n.asText() : n.path(field).asText();
    } catch (java.io.IOException e) {
      text = value;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return OffsetDateTime.parse(text, SALESFORCE).toInstant();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop.countDown();
    if (thread.isAlive() || thread.getState() != Thread.State.NEW) {
      thread.join();
    }
  }
}
