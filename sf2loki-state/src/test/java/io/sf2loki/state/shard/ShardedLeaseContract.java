package io.sf2loki.state.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.CheckpointDocument;
import io.sf2loki.state.Fencing;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.lease.LeaseStoreBinding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * HA-27…HA-30 on a real lease back end: 3 in-process replicas × 6 orgs, each org term committing to
 * its org's document through STATE-7 fencing. Asserted continuously: no org is led by two replicas
 * at once, and no fenced-out term ever lands a write (each org's stored epoch only grows). Then a
 * replica dies (its coordinator stops without releasing anything) and a fourth joins.
 */
abstract class ShardedLeaseContract {
  private static final List<String> ORGS = List.of("o1", "o2", "o3", "o4", "o5", "o6");
  private final Map<String, OrgDoc> docs = new HashMap<>();
  private final Map<String, String> leaders = new ConcurrentHashMap<>(); // org → replica
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private final List<Replica> replicas = new ArrayList<>();

  /** {@code ttl} / {@code lease_duration}. */
  protected abstract Duration lease();

  /** {@code renew_interval}. */
  protected abstract Duration renew();

  /** A fresh protocol over org {@code org}'s lease (HA-27). */
  protected abstract LeaseProtocol orgLease(
      String org, LeaseSettings s, LeaseStoreBinding b, TimeSource t);

  /** A fresh protocol over seat {@code i}'s lease (HA-30). */
  protected abstract LeaseProtocol seatLease(int i, LeaseSettings s, TimeSource t);

  @BeforeEach
  void docs() {
    ORGS.forEach(o -> docs.put(o, new OrgDoc(o)));
  }

  /** Runs after every replica stopped and released its leases. */
  protected void afterReplicas() {}

  @AfterEach
  void stopReplicas() throws Exception {
    try {
      for (Replica r : replicas) {
        r.stop();
      }
    } finally {
      afterReplicas();
    }
  }

  @Test
  @DisplayName(
      "HA-27/HA-28/HA-30: 3 replicas share 6 orgs 2/2/2; a dead replica's orgs move within the"
          + " lease time; a joining replica takes its share; never two leaders, never a fenced"
          + " write")
  void ha27_shareMoveAndJoin() throws Exception {
    for (String id : List.of("a", "b", "c")) {
      replicas.add(new Replica(id).start());
    }
    awaitBalanced(List.of("a", "b", "c"), 2);
    Map<String, Long> before = committed();

    Replica c = replicas.get(2);
    List<String> orphaned = c.kill();
    long killedAt = System.nanoTime();
    assertThat(orphaned).hasSize(2);
    await()
        .atMost(lease().multipliedBy(20))
        .until(() -> orphaned.stream().allMatch(o -> leaders.containsKey(o)));
    Duration moved = Duration.ofNanos(System.nanoTime() - killedAt);
    System.out.println("orgs of the dead replica led elsewhere after " + moved.toMillis() + " ms");
    awaitBalanced(List.of("a", "b"), 3);
    await()
        .atMost(lease().multipliedBy(20))
        .until(() -> ORGS.stream().allMatch(o -> docs.get(o).value() > before.get(o)));

    replicas.add(new Replica("d").start());
    awaitBalanced(List.of("a", "b", "d"), 2);
    assertThat(violations).isEmpty();
    for (OrgDoc d : docs.values()) {
      assertThat(d.epochs()).isSorted(); // STATE-7: an org's epoch never goes back
    }
  }

  private void awaitBalanced(List<String> live, int share) {
    await()
        .atMost(lease().multipliedBy(40))
        .untilAsserted(
            () -> {
              assertThat(violations).isEmpty();
              assertThat(leaders.keySet()).containsExactlyInAnyOrderElementsOf(ORGS);
              Map<String, Integer> counts = new HashMap<>();
              leaders.values().forEach(r -> counts.merge(r, 1, Integer::sum));
              assertThat(counts.keySet()).isSubsetOf(live);
              assertThat(counts.values()).allMatch(n -> n <= share);
            });
  }

  private Map<String, Long> committed() {
    Map<String, Long> m = new HashMap<>();
    docs.forEach((o, d) -> m.put(o, d.value()));
    return m;
  }

  /** One org's checkpoint document, shared by the replicas, fenced as STATE-7 says. */
  private static final class OrgDoc {
    private final String org;
    private Map<String, String> doc = new HashMap<>();
    private final List<Long> epochs = new ArrayList<>();

    OrgDoc(String org) {
      this.org = org;
    }

    synchronized long fenceEpoch() {
      return CheckpointDocument.fenceEpoch(doc).orElse(0);
    }

    synchronized void claim(Fencing f) {
      f.requireUnclaimed(fenceEpoch(), org);
      write(f, value());
    }

    synchronized void write(Fencing f, long value) {
      Map<String, String> next = new HashMap<>(doc);
      next.put("org=" + org + ":cursor", Long.toString(value));
      f.stamp(doc, next, org); // STATE-7: throws for a term that lost the lease
      doc = next;
      epochs.add(fenceEpoch());
    }

    synchronized long value() {
      return Long.parseLong(doc.getOrDefault("org=" + org + ":cursor", "0"));
    }

    synchronized List<Long> epochs() {
      return List.copyOf(epochs);
    }
  }

  /** One in-process replica: a sharded coordinator and one committing thread per org term. */
  private final class Replica {
    final String id;
    final StopSignal stop = new StopSignal();
    final ShardedCoordinator coordinator;
    final Map<String, Fencing> fencing = new ConcurrentHashMap<>();
    final Map<String, Term> terms = new ConcurrentHashMap<>();
    Thread runner;

    Replica(String id) {
      this.id = id;
      LeaseSettings settings = new LeaseSettings(id, lease(), renew(), Duration.ofSeconds(2));
      TimeSource time = TimeSource.system();
      ShardedCoordinator.Leases leases =
          new ShardedCoordinator.Leases() {
            @Override
            public LeaseProtocol org(String org) {
              return orgLease(org, settings, store(org), time);
            }

            @Override
            public LeaseProtocol seat(int i) {
              return seatLease(i, settings, time);
            }

            @Override
            public LeaseStoreBinding store(String org) {
              return binding(org);
            }
          };
      coordinator =
          new ShardedCoordinator("test", ORGS, 0, settings, leases, time, LeaseEvents.none());
    }

    LeaseStoreBinding binding(String org) {
      OrgDoc d = docs.get(org);
      return new LeaseStoreBinding() {
        @Override
        public long freshFenceEpoch() {
          return d.fenceEpoch();
        }

        @Override
        public void install(Fencing f) {
          fencing.put(org, f);
        }

        @Override
        public boolean beginTerm(Duration maxWait, StopSignal s) {
          return !s.isStopped();
        }

        @Override
        public void endTerm() {}

        @Override
        public void claimEpoch() {
          d.claim(fencing.get(org));
        }
      };
    }

    Replica start() {
      runner =
          Thread.ofVirtual()
              .name("replica-" + id)
              .start(
                  () -> {
                    try {
                      coordinator.run(this::leadership, stop);
                    } catch (Exception e) {
                      violations.add(id + ": coordinator failed: " + e);
                    }
                  });
      return this;
    }

    Coordinator.Leadership leadership(String org) {
      return new Coordinator.Leadership() {
        @Override
        public void onAcquire() {
          String other = leaders.putIfAbsent(org, id);
          if (other != null) {
            violations.add(org + " acquired by " + id + " while led by " + other);
          }
          terms.put(org, new Term(org, fencing.get(org), () -> coordinator.demote(org)).start());
        }

        @Override
        public void onLose() {
          Term t = terms.remove(org);
          if (t != null) {
            t.end();
          }
          leaders.remove(org, id);
        }
      };
    }

    /** Dies: terms and coordinator stop, nothing is released (no close). */
    List<String> kill() throws InterruptedException {
      List<String> led = new ArrayList<>(terms.keySet());
      stop.stop();
      runner.join();
      for (String org : led) {
        terms.remove(org).end();
        leaders.remove(org, id);
      }
      return led;
    }

    void stop() throws InterruptedException {
      if (!stop.isStopped()) {
        stop.stop();
        runner.join();
        terms.values().forEach(Term::end);
        coordinator.close();
      }
    }
  }

  /** One org term: commits an increasing cursor every few ms until it ends or is fenced. */
  private final class Term {
    final String org;
    final Fencing fencing;
    final StopSignal end = new StopSignal();
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicLong next = new AtomicLong();
    final Runnable demote;

    Term(String org, Fencing fencing, Runnable demote) {
      this.org = org;
      this.fencing = fencing;
      this.demote = demote;
    }

    Term start() {
      next.set(docs.get(org).value());
      Thread.ofVirtual()
          .name("term-" + org)
          .start(
              () -> {
                try {
                  while (!end.await(Duration.ofMillis(20))) {
                    docs.get(org).write(fencing, next.incrementAndGet());
                  }
                } catch (StateFenceException e) {
                  demote.run(); // HA-5: the daemon's term demotes on a fenced write
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  done.countDown();
                }
              });
      return this;
    }

    void end() {
      end.stop();
      try {
        done.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
