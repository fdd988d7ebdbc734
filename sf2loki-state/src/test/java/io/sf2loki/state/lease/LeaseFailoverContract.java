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

  @Test
  void forcedLossesNeverMoveCheckpointsBackwardsNorShareAnEpoch() throws Exception {
    LeaseFailoverHarness h = new LeaseFailoverHarness();
    for (String id : List.of("a", "b")) {
      h.add(id, store(), lease(), new LeaseSettings(id, TTL, RENEW, Duration.ofSeconds(2)));
    }
    try (LeaseFailoverHarness.Watcher w =
        new LeaseFailoverHarness.Watcher(() -> parse(rawState()))) {
      h.start();
      for (int i = 0; i < losses(); i++) {
        long before = h.pushes();
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> h.leader() != null && h.pushes() > before + 5);
        Replica l = h.leader();
        if (i % 2 == 0) {
          try (LeaseStorage intruder = lease()) {
            LeaseRead r = intruder.read();
            intruder.write(
                new LeaseDocument("intruder", Instant.now().plus(TTL), l.coordinator.epoch())
                    .serialise(),
                r.version());
          } catch (LeaseConflictException raced) {
            l.storage.failWrites = true; // the holder renewed in between: force the other way
          }
        } else {
          l.storage.failWrites = true;
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> !l.leading());
        l.storage.failWrites = false;
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
    // every term had its own epoch, and every push came from the term holding that epoch
    Map<Long, String> termOfEpoch = new HashMap<>();
    for (Replica r : h.replicas) {
      for (long e : r.termEpochs) {
        assertThat(termOfEpoch.put(e, r.id)).as("epoch %d began one term", e).isNull();
      }
    }
    assertThat(termOfEpoch).hasSize(terms);
    holderOfEpoch.forEach(
        (e, replica) -> assertThat(termOfEpoch).as("push epoch %d", e).containsEntry(e, replica));
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
