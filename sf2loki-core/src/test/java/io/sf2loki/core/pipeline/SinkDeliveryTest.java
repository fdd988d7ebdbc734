package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The lane holds one delivery per batch across its retries (issue 12; SINK-10, PIPE-7). */
class SinkDeliveryTest {
  private static final Instant START = Instant.parse("2026-12-02T00:00:00Z");

  @Test
  @DisplayName(
      "PIPE-7, SINK-10: a batch is opened once and every retry goes through that delivery; the"
          + " next batch gets a delivery of its own")
  void pipe7_oneDeliveryPerBatchAcrossRetries() throws Exception {
    List<Batch> opened = new CopyOnWriteArrayList<>();
    List<Integer> attemptsByDelivery = new CopyOnWriteArrayList<>();
    AtomicInteger failuresLeft = new AtomicInteger(2);
    Sink sink =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop) {
            throw new AssertionError("the lane pushes through the batch's delivery");
          }

          @Override
          public Delivery open(Batch batch) {
            opened.add(batch);
            int index = attemptsByDelivery.size();
            attemptsByDelivery.add(0);
            return (singleAttempt, stop) -> {
              attemptsByDelivery.set(index, attemptsByDelivery.get(index) + 1);
              if (failuresLeft.getAndDecrement() > 0) {
                throw new RetryableSinkException("HTTP 500", 500);
              }
              return PushResult.delivered(batch.realCount());
            };
          }
        };
    List<LogEntry> entries =
        List.of(
            LogEntry.of(START, Map.of("source", "t"), "a", Map.of(), new CheckpointToken("k", "1")),
            LogEntry.of(
                START, Map.of("source", "t"), "b", Map.of(), new CheckpointToken("k", "2")));
    FakeTime time = new FakeTime(START);
    InMemoryCheckpointStore store = new InMemoryCheckpointStore();
    Pipeline p =
        new Pipeline(
            new PipelineSettings(
                1,
                1_048_576,
                Duration.ofMillis(20),
                100,
                0,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Map.of(),
                Duration.ZERO),
            List.of(new ListSource("two", Lane.BULK, entries)),
            sink,
            store,
            Sf2lokiMetrics.noop(),
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none());
    assertThat(p.run(new StopSignal())).isTrue();

    assertThat(opened).hasSize(2);
    assertThat(attemptsByDelivery).containsExactly(3, 1);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(store.snapshot()).containsEntry("k", "2");
  }
}
