package io.sf2loki.state.lease;

import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Replicas contending for one lease and one checkpoint document in one JVM, each on its own
 * coordinator thread, store instance and lease-storage instance (as separate processes would have).
 * While leading, a replica's producer "pushes" sequence numbers to the shared receiver and commits
 * them as the checkpoint {@code seq}: at-least-once, resuming from the committed value.
 */
final class LeaseFailoverHarness implements AutoCloseable {
  /** One push seen by the receiver. */
  record Push(String replica, long epoch, long seq) {}

  final List<Push> received = new CopyOnWriteArrayList<>();
  final List<Replica> replicas = new ArrayList<>();

  /** A lease storage whose writes can be made to fail (forces a renew-deadline surrender). */
  static final class Switchable implements LeaseStorage {
    final LeaseStorage inner;
    volatile boolean failWrites;

    Switchable(LeaseStorage inner) {
      this.inner = inner;
    }

    @Override
    public LeaseRead read() {
      return inner.read();
    }

    @Override
    public String write(byte[] body, String expectedVersion) {
      if (failWrites) {
        throw new LeaseWriteException("injected", null);
      }
      return inner.write(body, expectedVersion);
    }

    @Override
    public String describe() {
      return inner.describe();
    }

    @Override
    public void close() {
      inner.close();
    }
  }

  final class Replica implements Coordinator.Leadership {
    final String id;
    final CheckpointStore store;
    final Switchable storage;
    final LeaseCoordinator coordinator;
    final StopSignal stop = new StopSignal();
    final Thread thread;
    volatile Thread producer;
    final AtomicBoolean producing = new AtomicBoolean();
    volatile int terms;
    final List<Long> termEpochs = new CopyOnWriteArrayList<>();

    Replica(String id, CheckpointStore store, LeaseStorage lease, LeaseSettings settings) {
      this.id = id;
      this.store = store;
      this.storage = new Switchable(lease);
      this.coordinator =
          new LeaseCoordinator(
              "test",
              storage,
              settings,
              LeaseStoreBinding.of(store, TimeSource.system()),
              TimeSource.system(),
              LeaseEvents.none());
      this.thread =
          Thread.ofPlatform()
              .name("coordinator-" + id)
              .unstarted(
                  () -> {
                    try {
                      coordinator.run(this, stop);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  });
    }

    @Override
    public void onAcquire() {
      terms++;
      long epoch = coordinator.epoch();
      termEpochs.add(epoch);
      producing.set(true);
      producer = Thread.ofPlatform().name("producer-" + id).start(() -> produce(epoch));
    }

    private void produce(long epoch) {
      try {
        long seq = store.load("seq").map(Long::parseLong).orElse(0L);
        while (producing.get()) {
          seq++;
          if (!coordinator.leading()) {
            break;
          }
          received.add(new Push(id, epoch, seq)); // the push
          store.commitMany(Map.of("seq", Long.toString(seq)), Set.of());
          Thread.onSpinWait();
        }
      } catch (StateException e) {
        coordinator.demote(); // HA-5: fenced or conflicting write
      }
    }

    @Override
    public void onLose() {
      producing.set(false);
      Thread p = producer;
      if (p != null) {
        try {
          p.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      store.reset();
    }

    boolean leading() {
      return coordinator.leading() && producing.get();
    }

    void close() throws InterruptedException {
      stop.stop();
      thread.join();
      onLose();
      coordinator.close();
      store.close();
    }
  }

  Replica add(String id, CheckpointStore store, LeaseStorage lease, LeaseSettings settings) {
    Replica r = new Replica(id, store, lease, settings);
    replicas.add(r);
    return r;
  }

  void start() {
    replicas.forEach(r -> r.thread.start());
  }

  /** The replica leading now, or null. */
  Replica leader() {
    return replicas.stream().filter(Replica::leading).findFirst().orElse(null);
  }

  long pushes() {
    return received.size();
  }

  @Override
  public void close() throws InterruptedException {
    for (Replica r : replicas) {
      r.close();
    }
  }

  /** Polls {@code raw} (the stored checkpoint document's fence epoch and seq) on a thread. */
  static final class Watcher implements AutoCloseable {
    final List<long[]> history = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    Watcher(Supplier<Map<String, String>> raw) {
      thread =
          Thread.ofPlatform()
              .name("watcher")
              .start(
                  () -> {
                    while (running.get()) {
                      try {
                        Map<String, String> d = raw.get();
                        if (d != null && d.containsKey("seq")) {
                          history.add(
                              new long[] {
                                Long.parseLong(d.getOrDefault("__fence_epoch__", "0")),
                                Long.parseLong(d.get("seq"))
                              });
                        }
                        Thread.sleep(Duration.ofMillis(5)); // sampling period, not a sync
                      } catch (InterruptedException e) {
                        return;
                      } catch (RuntimeException e) {
                        // a read racing a rename or an object write: sample again
                      }
                    }
                  });
    }

    @Override
    public void close() throws InterruptedException {
      running.set(false);
      thread.join();
    }
  }
}
