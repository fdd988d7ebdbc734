package io.sf2loki.state.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.state.lease.LeaseFailoverHarness.Push;
import io.sf2loki.state.lease.LeaseFailoverHarness.Replica;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Forced lease losses while two replicas produce (SPEC HA-7, HA-8, HA-10, HA-11, issue 11
 * acceptance): alternately an intruder takes the lease (the holder reads a foreign holder and
 * surrenders) and the holder's lease writes fail (it surrenders at its renew deadline, before the
 * lease can expire for the other). Asserted from the stored document's {@code __fence_epoch__} /
 * checkpoint history and from the receiver.
 */
abstract class LeaseFailoverContract {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration TTL = Duration.ofMillis(600);
  static final Duration RENEW = Duration.ofMillis(200);

  protected abstract CheckpointStore store();

  protected abstract LeaseStorage lease();

  /** The stored checkpoint document as written, or null. */
  protected abstract String rawState();

  protected abstract int losses();

  static Map<String, String> parse(String raw) {
    if (raw == null) {
      return null;
    }
    try {
      return JSON.readValue(raw, new TypeReference<HashMap<String, String>>() {});
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Adds the contending replicas (two, over {@link #store()} and {@link #lease()}). */
  protected void addReplicas(LeaseFailoverHarness h) {
    for (String id : List.of("a", "b")) {
      h.add(id, store(), lease(), new LeaseSettings(id, TTL, RENEW, Duration.ofSeconds(2)));
    }
  }

  /**
   * Makes leader {@code l} lose its lease (loss number {@code i}); returns what undoes the fault
   * once it stopped leading. Alternately an intruder takes the lease or the leader's writes fail.
   */
  protected Runnable forceLoss(int i, Replica l) throws Exception {
    if (i % 2 == 0) {
      intrude(l);
    } else {
      l.storage.failWrites = true;
    }
    return () -> l.storage.failWrites = false;
  }

  /**
   * Called while leader {@code l} still leads after {@link #forceLoss}: a file lease is
   * last-writer-wins, so a renewal racing the intruder's write can undo it; write it again.
   */
  protected void stillLeading(int i, Replica l) throws Exception {
    if (i % 2 == 0) {
      intrude(l);
    }
  }

  private void intrude(Replica l) throws Exception {
    try (LeaseStorage intruder = lease()) {
      LeaseRead r = intruder.read();
      intruder.write(
          new LeaseDocument("intruder", Instant.now().plus(TTL), l.coordinator.epoch()).serialise(),
          r.version());
    } catch (LeaseConflictException raced) {
      l.storage.failWrites = true; // the holder renewed in between: force the other way
    }
  }

  @Test
  void forcedLossesNeverMoveCheckpointsBackwardsNorShareAnEpoch() throws Exception {
    LeaseFailoverHarness h = new LeaseFailoverHarness();
    addReplicas(h);
    try (LeaseFailoverHarness.Watcher w =
        new LeaseFailoverHarness.Watcher(() -> parse(rawState()))) {
      h.start();
      for (int i = 0; i < losses(); i++) {
        long before = h.pushes();
        try {
          await()
              .atMost(Duration.ofSeconds(20))
              .until(() -> h.leader() != null && h.pushes() > before + 5);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
          throw new AssertionError("no leader pushing after loss " + i + ": " + h.describe(), e);
        }
        Replica l = h.leader();
        int term = l.terms;
        Runnable heal = forceLoss(i, l);
        try { // a replica may win its lease back at once (own identity): a new term counts too
          int loss = i;
          await()
              .atMost(Duration.ofSeconds(5))
              .until(
                  () -> {
                    if (!l.leading() || l.terms != term) {
                      return true;
                    }
                    stillLeading(loss, l);
                    return false;
                  });
        } finally {
          heal.run();
        }
      }
      long last = h.pushes();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> h.leader() != null && h.pushes() > last + 5);
      h.close();
      assertHistory(h, w);
    }
  }

  private void assertHistory(LeaseFailoverHarness h, LeaseFailoverHarness.Watcher w) {
    int terms = h.replicas.stream().mapToInt(r -> r.terms).sum();
    assertThat(terms).isGreaterThan(losses());
    // the stored fence epoch and checkpoint never move backwards
    long[] prev = {0, 0};
    for (long[] s : w.history) {
      assertThat(s[0]).as("__fence_epoch__").isGreaterThanOrEqualTo(prev[0]);
      assertThat(s[1]).as("seq").isGreaterThanOrEqualTo(prev[1]);
      prev = s;
    }
    assertThat(w.history).isNotEmpty();
    // one replica per epoch, epochs never interleave at the receiver
    Map<Long, String> holderOfEpoch = new HashMap<>();
    long lastEpoch = 0;
    for (Push p : h.received) {
      assertThat(
              holderOfEpoch.putIfAbsent(p.epoch(), p.replica()) == null
                  || holderOfEpoch.get(p.epoch()).equals(p.replica()))
          .as("epoch %d pushed by one replica", p.epoch())
          .isTrue();
      assertThat(p.epoch()).as("pushes in epoch order").isGreaterThanOrEqualTo(lastEpoch);
      lastEpoch = p.epoch();
    }
    // every term has its own epoch (a term may end before it pushed anything)
    assertThat(h.termEpochs).doesNotHaveDuplicates().hasSize(terms);
    assertThat(holderOfEpoch.size()).isLessThanOrEqualTo(terms);
    // every committed row landed; re-sends are at most one per failover (at-least-once)
    long committed = Long.parseLong(parse(rawState()).get("seq"));
    TreeSet<Long> seen = new TreeSet<>();
    h.received.forEach(p -> seen.add(p.seq()));
    assertThat(seen.first()).isEqualTo(1);
    assertThat(seen.last()).isGreaterThanOrEqualTo(committed);
    assertThat(seen).hasSize((int) (long) seen.last()); // no gap
    assertThat(h.received.size() - seen.size()).isLessThanOrEqualTo(terms);
  }
}
