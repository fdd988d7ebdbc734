package io.sf2loki.salesforce.pubsub;

import static io.sf2loki.salesforce.pubsub.BridgeTestSupport.entry;
import static io.sf2loki.salesforce.pubsub.BridgeTestSupport.eventually;
import static io.sf2loki.salesforce.pubsub.BridgeTestSupport.keepalive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.StopSignal;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PubSubBridgeTest {
  private static final String T = "/event/LoginEventStream";

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final StopSignal stop = new StopSignal();

  @AfterEach
  void tearDown() {
    stop.stop();
    threads.shutdownNow();
  }

  private Future<Boolean> putAsync(PubSubBridge bridge, LogEntry e, StopSignal s) {
    return threads.submit(() -> bridge.put(e, s));
  }

  private static List<LogEntry> drain(PubSubBridge bridge, int n, StopSignal stop)
      throws InterruptedException {
    List<LogEntry> out = new CopyOnWriteArrayList<>();
    for (int i = 0; i < n; i++) {
      assertThat(bridge.transferTo(e -> out.add(e), stop)).isTrue();
    }
    return out;
  }

  @Test
  @DisplayName("PS-17: cost is line bytes + 64 for real entries and 0 for checkpoint-only entries")
  void ps17_cost() throws Exception {
    PubSubBridge bridge = new PubSubBridge(0);
    assertThat(PubSubBridge.cost(entry(T, 100, 1))).isEqualTo(164);
    assertThat(PubSubBridge.cost(keepalive(T))).isZero();
    LogEntry multiByte = entry(T, 0, 1).withLine("é€"); // 2 + 3 UTF-8 bytes
    assertThat(PubSubBridge.cost(multiByte)).isEqualTo(64 + 5);

    assertThat(bridge.put(entry(T, 100, 1), stop)).isTrue();
    assertThat(bridge.put(keepalive(T), stop)).isTrue();
    assertThat(bridge.chargedBytes()).isEqualTo(164);
    assertThat(bridge.entries()).isEqualTo(2);
    assertThat(bridge.hasByteRoom()).isTrue(); // byte bound off

    drain(bridge, 2, stop);
    assertThat(bridge.chargedBytes()).isZero();
    assertThat(bridge.entries()).isZero();
  }

  @Test
  @DisplayName(
      "PS-17: a writer waits while charged bytes ≥ budget; checkpoint-only entries still pass")
  void ps17_byteBudget() throws Exception {
    PubSubBridge bridge = new PubSubBridge(300);
    assertThat(bridge.put(entry(T, 100, 1), stop)).isTrue(); // 164 < 300
    assertThat(bridge.hasByteRoom()).isTrue();
    assertThat(bridge.put(entry(T, 100, 2), stop)).isTrue(); // admitted below budget → 328
    assertThat(bridge.chargedBytes()).isEqualTo(328);
    assertThat(bridge.hasByteRoom()).isFalse();

    Future<Boolean> third = putAsync(bridge, entry(T, 100, 3), stop);
    eventually(() -> bridge.waitingWriters() == 1, "third writer waits");
    assertThat(third).isNotDone();
    assertThat(bridge.put(keepalive(T), stop)).isTrue(); // cost 0: no byte wait

    List<LogEntry> out = drain(bridge, 1, stop);
    assertThat(out).extracting(e -> e.checkpoint().value()).containsExactly("1");
    assertThat(third.get(2, TimeUnit.SECONDS)).isTrue();
    assertThat(bridge.chargedBytes()).isEqualTo(328);
    assertThat(bridge.waitingWriters()).isZero();
    assertThat(bridge.entries()).isEqualTo(3);
  }

  @Test
  @DisplayName("PS-17: one entry larger than the budget is admitted once the bridge is empty")
  void ps17_oversizedEntry() throws Exception {
    PubSubBridge bridge = new PubSubBridge(300);
    assertThat(bridge.put(entry(T, 1000, 1), stop)).isTrue(); // empty bridge: admitted
    assertThat(bridge.chargedBytes()).isEqualTo(1064);

    Future<Boolean> next = putAsync(bridge, entry(T, 10, 2), stop);
    eventually(() -> bridge.waitingWriters() == 1, "next writer waits behind the big entry");
    drain(bridge, 1, stop);
    assertThat(next.get(2, TimeUnit.SECONDS)).isTrue();
    assertThat(bridge.chargedBytes()).isEqualTo(74);
  }

  @Test
  @DisplayName("PS-17: at most 1000 entries (byte bound off)")
  void ps17_entryBound() throws Exception {
    PubSubBridge bridge = new PubSubBridge(0);
    for (int i = 0; i < PubSubBridge.MAX_ENTRIES; i++) {
      assertThat(bridge.put(keepalive(T), stop)).isTrue();
    }
    Future<Boolean> over = putAsync(bridge, keepalive(T), stop);
    eventually(() -> bridge.waitingWriters() == 1, "the 1001st writer waits");
    drain(bridge, 1, stop);
    assertThat(over.get(2, TimeUnit.SECONDS)).isTrue();
    assertThat(bridge.entries()).isEqualTo(PubSubBridge.MAX_ENTRIES);
  }

  @Test
  @DisplayName("PS-17/PS-18: the charge is held until the lane accepted the entry")
  void ps17_chargeReleasedOnHandOff() throws Exception {
    PubSubBridge bridge = new PubSubBridge(300);
    bridge.put(entry(T, 100, 1), stop);
    CountDownLatch inEmit = new CountDownLatch(1);
    CountDownLatch laneFree = new CountDownLatch(1);
    Future<Boolean> drainer =
        threads.submit(
            () ->
                bridge.transferTo(
                    e -> {
                      inEmit.countDown();
                      return laneFree.await(2, TimeUnit.SECONDS);
                    },
                    stop));
    assertThat(inEmit.await(2, TimeUnit.SECONDS)).isTrue();
    assertThat(bridge.chargedBytes()).isEqualTo(164); // blocked in the lane: still charged
    assertThat(bridge.entries()).isEqualTo(1);
    laneFree.countDown();
    assertThat(drainer.get(2, TimeUnit.SECONDS)).isTrue();
    assertThat(bridge.chargedBytes()).isZero();
    assertThat(bridge.entries()).isZero();
  }

  @Test
  @DisplayName("PS-17: a lane that refuses or throws still releases the charge (PIPE-21)")
  void pipe21_refusedHandOffReleases() throws Exception {
    PubSubBridge bridge = new PubSubBridge(300);
    bridge.put(entry(T, 100, 1), stop);
    bridge.put(entry(T, 100, 2), stop);
    assertThat(bridge.transferTo(e -> false, stop)).isFalse();
    assertThatThrownBy(
            () ->
                bridge.transferTo(
                    e -> {
                      throw new IllegalStateException("lane broke");
                    },
                    stop))
        .isInstanceOf(IllegalStateException.class);
    assertThat(bridge.chargedBytes()).isZero();
    assertThat(bridge.entries()).isZero();
  }

  @Test
  @DisplayName("SRC-2: a waiting writer returns false when its stop fires, leaving no charge")
  void src2_stopWhileWaiting() throws Exception {
    PubSubBridge bridge = new PubSubBridge(100);
    bridge.put(entry(T, 100, 1), stop);
    StopSignal topicStop = new StopSignal();
    Future<Boolean> waiting = putAsync(bridge, entry(T, 100, 2), topicStop);
    eventually(() -> bridge.waitingWriters() == 1, "writer waits");
    topicStop.stop();
    assertThat(waiting.get(2, TimeUnit.SECONDS)).isFalse();
    assertThat(bridge.chargedBytes()).isEqualTo(164);
    assertThat(bridge.waitingWriters()).isZero();
    assertThat(bridge.put(entry(T, 1, 3), topicStop)).isFalse(); // stopped: refused at once
  }

  @Test
  @DisplayName("PIPE-24(3): a reader interrupted while waiting to enqueue leaves no charge")
  void pipe24_interruptedWriterLeavesNoCharge() throws Exception {
    PubSubBridge bridge = new PubSubBridge(100);
    bridge.put(entry(T, 100, 1), stop);
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread writer =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    bridge.put(entry(T, 100, 2), stop);
                    outcome.complete(null);
                  } catch (Throwable t) {
                    outcome.complete(t);
                  }
                });
    eventually(() -> bridge.waitingWriters() == 1, "writer waits");
    writer.interrupt();
    assertThat(outcome.get(2, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    assertThat(bridge.chargedBytes()).isEqualTo(164);
    assertThat(bridge.entries()).isEqualTo(1);
    assertThat(bridge.waitingWriters()).isZero();
    drain(bridge, 1, stop);
    assertThat(bridge.chargedBytes()).isZero();
  }

  @Test
  @DisplayName("PS-3: byte-room listeners fire on each no-room → room transition, until removed")
  void ps3_deferredRoomCallback() throws Exception {
    PubSubBridge bridge = new PubSubBridge(300);
    AtomicInteger calls = new AtomicInteger();
    List<Thread> callbackThreads = new CopyOnWriteArrayList<>();
    Runnable unregister =
        bridge.onByteRoom(
            () -> {
              calls.incrementAndGet();
              callbackThreads.add(Thread.currentThread());
            });

    bridge.put(entry(T, 100, 1), stop);
    drain(bridge, 1, stop); // room all along: no transition
    assertThat(calls).hasValue(0);

    bridge.put(entry(T, 100, 2), stop);
    bridge.put(entry(T, 100, 3), stop); // 328 ≥ 300: no room
    assertThat(bridge.hasByteRoom()).isFalse();
    drain(bridge, 1, stop); // 164 < 300: room regained
    assertThat(calls).hasValue(1);
    assertThat(callbackThreads).containsExactly(Thread.currentThread()); // the releasing thread
    drain(bridge, 1, stop); // still room: no second call
    assertThat(calls).hasValue(1);

    unregister.run();
    bridge.put(entry(T, 100, 4), stop);
    bridge.put(entry(T, 100, 5), stop);
    drain(bridge, 1, stop);
    assertThat(calls).hasValue(1);
  }

  @Test
  @DisplayName("PIPE-21: close releases every charge, wakes every waiter and refuses later calls")
  void pipe21_closeReleasesEverything() throws Exception {
    PubSubBridge bridge = new PubSubBridge(100);
    AtomicInteger room = new AtomicInteger();
    bridge.onByteRoom(room::incrementAndGet);
    bridge.put(entry(T, 100, 1), stop);
    Future<Boolean> waiting = putAsync(bridge, entry(T, 100, 2), stop);
    eventually(() -> bridge.waitingWriters() == 1, "writer waits");

    assertThat(bridge.close()).isEqualTo(1);
    assertThat(waiting.get(2, TimeUnit.SECONDS)).isFalse();
    assertThat(bridge.chargedBytes()).isZero();
    assertThat(bridge.entries()).isZero();
    assertThat(bridge.waitingWriters()).isZero();
    assertThat(room).hasValue(1);
    assertThat(bridge.put(keepalive(T), stop)).isFalse();
    assertThat(bridge.transferTo(e -> true, stop)).isFalse();
    assertThat(bridge.close()).isZero();
  }

  @Test
  @DisplayName("SRC-2: the drain side waits for an entry and returns false when stop fires")
  void src2_drainStopsWhenStopFires() throws Exception {
    PubSubBridge bridge = new PubSubBridge(0);
    Future<Boolean> drainer = threads.submit(() -> bridge.transferTo(e -> true, stop));
    assertThat(drainer).isNotDone();
    stop.stop();
    assertThat(drainer.get(2, TimeUnit.SECONDS)).isFalse();
  }

  @Test
  @DisplayName("PS-17: bridge_max_bytes must not be negative")
  void rejectsNegativeBudget() {
    assertThatThrownBy(() -> new PubSubBridge(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
