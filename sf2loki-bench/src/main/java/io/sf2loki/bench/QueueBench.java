package io.sf2loki.bench;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.LaneQueue;
import io.sf2loki.core.time.StopSignal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The lane queue's own cost (PIPE-3 charging, token references, lock) per entry, single-threaded:
 * put 1,000 labelled entries, then poll them. Contention and thread wake-ups are not included.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QueueBench {
  private List<LogEntry> entries;
  private LaneQueue queue;

  @Setup
  public void setup() {
    entries = BenchData.entries("Login", EncodeBench.BATCH, BenchData.metrics());
    queue = new LaneQueue(10_000, 268_435_456L, 1, new StopSignal());
  }

  @Benchmark
  @OperationsPerInvocation(EncodeBench.BATCH)
  public void putThenPoll(Blackhole bh) throws InterruptedException {
    for (int i = 0; i < entries.size(); i++) {
      queue.put(entries.get(i));
    }
    for (int i = 0; i < entries.size(); i++) {
      bh.consume(queue.poll(0));
    }
  }
}
