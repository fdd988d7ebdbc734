package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.time.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Lanes per Loki identity group (SPEC PIPE-28, OBS-39). */
class LaneGroupsTest {
  private final SdkMeterProvider provider = SdkMeterProvider.builder().build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));
  private final Sink sink = (batch, single, stop) -> PushResult.delivered(1);

  @AfterEach
  void close() {
    provider.close();
  }

  private Pipeline pipeline(long queueMaxBytes, List<Source> sources, Function<Source, String> g) {
    return new Pipeline(
        new PipelineSettings(
            10,
            1_048_576,
            Duration.ofSeconds(1),
            101,
            queueMaxBytes,
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Map.of(),
            Duration.ZERO),
        sources,
        sink,
        new InMemoryCheckpointStore(),
        metrics,
        time.timeSource(),
        UnaryOperator.identity(),
        CommitListener.none(),
        new EgressGovernor(EgressSettings.disabled(), time.timeSource(), metrics, Optional.empty()),
        null,
        g);
  }

  @Test
  @DisplayName(
      "PIPE-28, OBS-39: one lane per kind and identity group, named <kind>/<group>; a kind's lanes"
          + " split its queue bounds equally, a kind with one lane keeps them whole")
  void pipe28_lanesPerGroupSplitTheBounds() {
    Source bulkA = new ListSource("a/elf", Lane.BULK, List.of());
    Source bulkA2 = new ListSource("a/apexlog", Lane.BULK, List.of());
    Source bulkB = new ListSource("b/elf", Lane.BULK, List.of());
    Source streamA = new ListSource("a/pubsub", Lane.STREAMING, List.of());
    Map<Source, String> groups = Map.of(bulkA, "", bulkA2, "", bulkB, "team-b", streamA, "");
    Pipeline p = pipeline(1001, List.of(bulkB, bulkA, streamA, bulkA2), groups::get);
    assertThat(p.queueBounds())
        .containsExactly(
            Map.entry("streaming", List.of(101L, 1001L)),
            Map.entry("bulk", List.of(50L, 500L)),
            Map.entry("bulk/team-b", List.of(50L, 500L)));
    assertThat(p.laneStatus())
        .extracting(LaneStatus::name)
        .containsExactly("streaming", "bulk", "bulk/team-b");
  }

  @Test
  @DisplayName(
      "PIPE-28: without identity groups the lanes are PIPE-2's two with the configured bounds;"
          + " an unbounded byte budget stays unbounded when split")
  void pipe28_noGroupsNoChange() {
    Source bulk = new ListSource("elf", Lane.BULK, List.of());
    Source stream = new ListSource("pubsub", Lane.STREAMING, List.of());
    assertThat(pipeline(1001, List.of(bulk, stream), s -> "").queueBounds())
        .containsExactly(
            Map.entry("streaming", List.of(101L, 1001L)), Map.entry("bulk", List.of(101L, 1001L)));
    Source other = new ListSource("b/elf", Lane.BULK, List.of());
    assertThat(pipeline(0, List.of(bulk, other), s -> s == other ? "b" : "").queueBounds().values())
        .containsExactly(List.of(50L, 0L), List.of(50L, 0L));
  }
}
