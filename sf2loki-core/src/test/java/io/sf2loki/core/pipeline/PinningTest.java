package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.testing.ScriptedSink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC PIPE-26: a steady-state pipeline run recorded with Java Flight Recorder has no
 * virtual-thread pinning event (producers, consumers and the committer run on virtual threads and
 * must never pin their carrier).
 */
class PinningTest {
  @Test
  @DisplayName("PIPE-26: a steady-state two-lane pipeline records no jdk.VirtualThreadPinned event")
  void pipe26_noVirtualThreadPinning(@TempDir Path dir) throws Exception {
    List<LogEntry> bulk = new ArrayList<>();
    List<LogEntry> streaming = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      bulk.add(entry("eventlogfile:Login", i));
      streaming.add(entry("pubsub:/event/X", i));
    }
    // steady state: the first run loads and initialises every class (class loading may pin)
    run(bulk, streaming, new ScriptedSink());
    ScriptedSink sink = new ScriptedSink();
    Path jfr = dir.resolve("pipeline.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
      recording.start();
      run(bulk, streaming, sink);
      recording.stop();
      recording.dump(jfr);
    }
    assertThat(sink.delivered()).hasSize(10_000);
    List<RecordedEvent> pinned =
        RecordingFile.readAllEvents(jfr).stream()
            .filter(e -> e.getEventType().getName().equals("jdk.VirtualThreadPinned"))
            .toList();
    assertThat(pinned).as("pinning events: %s", pinned).isEmpty();
    assertThat(Files.size(jfr)).isPositive();
  }

  private static void run(List<LogEntry> bulk, List<LogEntry> streaming, ScriptedSink sink)
      throws Exception {
    new Pipeline(
            new PipelineSettings(
                100,
                1_048_576,
                Duration.ofSeconds(1),
                1000,
                1 << 20,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Map.of("job", "sf2loki"),
                Duration.ZERO),
            List.of(
                new ListSource("bulk", Lane.BULK, bulk),
                new ListSource("streaming", Lane.STREAMING, streaming)),
            sink,
            new InMemoryCheckpointStore(),
            Sf2lokiMetrics.noop(),
            new FakeTime(Instant.parse("2026-11-29T00:00:00Z")).timeSource(),
            UnaryOperator.identity(),
            CommitListener.none())
        .run(new StopSignal());
  }

  private static LogEntry entry(String key, int i) {
    return LogEntry.of(
        Instant.parse("2026-11-29T00:00:00Z").plusMillis(i),
        Map.of("source", key.substring(0, key.indexOf(':'))),
        "line " + i,
        Map.of(),
        new CheckpointToken(key, "v" + i));
  }
}
