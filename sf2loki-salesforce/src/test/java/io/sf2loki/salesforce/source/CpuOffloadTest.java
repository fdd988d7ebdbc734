package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.time.StopSignal;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CpuOffloadTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(1);
  private final CpuOffload cpu = new CpuOffload(pool);

  @AfterEach
  void close() {
    pool.shutdownNow();
  }

  @Test
  @DisplayName("PIPE-26: a task runs on the CPU pool and its value comes back")
  void pipe26_value() throws Exception {
    CompletableFuture<String> f = cpu.submit(() -> Thread.currentThread().getName());
    assertThat(CpuOffload.result(f, IOException.class))
        .isNotEqualTo(Thread.currentThread().getName());
    assertThat(CpuOffload.await(cpu.submit(() -> 7), new StopSignal(), IOException.class))
        .contains(7);
  }

  @Test
  @DisplayName("PIPE-26: a task's checked and runtime exceptions reach the caller unwrapped")
  void pipe26_exceptionsUnwrapped() {
    assertThatThrownBy(
            () ->
                CpuOffload.result(
                    cpu.submit(
                        () -> {
                          throw new IOException("disk");
                        }),
                    IOException.class))
        .isInstanceOf(IOException.class)
        .hasMessage("disk");
    assertThatThrownBy(
            () ->
                CpuOffload.result(
                    cpu.submit(
                        () -> {
                          throw new IllegalArgumentException("bad");
                        }),
                    IOException.class,
                    InterruptedException.class))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                CpuOffload.result(
                    cpu.submit(
                        () -> {
                          throw new Exception("other");
                        }),
                    IOException.class))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  @DisplayName("PIPE-26: a wait ends empty once stop fired, and the task is cancelled")
  void pipe26_stopAware() throws Exception {
    StopSignal stop = new StopSignal();
    stop.stop();
    CompletableFuture<Integer> never = new CompletableFuture<>();
    assertThat(CpuOffload.await(never, stop, IOException.class)).isEmpty();
    assertThat(never).isCancelled();
  }
}
