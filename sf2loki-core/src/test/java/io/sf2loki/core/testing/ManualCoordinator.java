package io.sf2loki.core.testing;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.time.StopSignal;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test coordinator driven by the test: {@link #acquire()} and {@link #lose()} run the HA-1
 * callbacks on the coordinator's own thread (as a real coordinator would) and return when the
 * callback returned. {@link #demote()} is recorded and answered with {@link #demoteAnswer}.
 */
public final class ManualCoordinator implements Coordinator {
  private final BlockingQueue<Command> commands = new LinkedBlockingQueue<>();
  private volatile boolean demoteAnswer;
  private volatile int demotions;
  private final java.util.concurrent.CountDownLatch demoted =
      new java.util.concurrent.CountDownLatch(1);

  private record Command(boolean acquire, CompletableFuture<Void> done) {}

  @Override
  public void run(Leadership leadership, StopSignal stop) throws InterruptedException {
    while (!stop.isStopped()) {
      Command c = commands.poll(5, TimeUnit.MILLISECONDS);
      if (c == null) {
        continue;
      }
      try {
        if (c.acquire()) {
          leadership.onAcquire();
        } else {
          leadership.onLose();
        }
        c.done().complete(null);
      } catch (RuntimeException e) {
        c.done().completeExceptionally(e);
      }
    }
  }

  /** Makes this replica leader; returns when {@code onAcquire} returned. */
  public void acquire() throws Exception {
    send(true);
  }

  /** Takes leadership away; returns when {@code onLose} returned (the term ended). */
  public void lose() throws Exception {
    send(false);
  }

  private void send(boolean acquire) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    commands.add(new Command(acquire, done));
    done.get(30, TimeUnit.SECONDS);
  }

  public void setDemoteAnswer(boolean answer) {
    this.demoteAnswer = answer;
  }

  public int demotions() {
    return demotions;
  }

  @Override
  public boolean demote() {
    demotions++;
    demoted.countDown();
    return demoteAnswer;
  }

  /** Waits (bounded) for the first {@link #demote()} call. */
  public boolean awaitDemotion(long timeout, TimeUnit unit) throws InterruptedException {
    return demoted.await(timeout, unit);
  }
}
