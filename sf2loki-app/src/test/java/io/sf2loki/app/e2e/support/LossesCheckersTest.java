package io.sf2loki.app.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The checks of {@code FileLeaseProcessLossesTest} fail when they should. */
class LossesCheckersTest {
  private static final Instant T0 = Instant.parse("2026-12-03T08:00:00Z");

  private static StateSampler.Sample sample(long ms, long fence) {
    return new StateSampler.Sample(
        T0.plusMillis(ms),
        T0.plusMillis(ms + 1),
        Map.of(StateSampler.FENCE, Long.toString(fence)),
        "",
        fence);
  }

  private static PushEpochs.Push push(long ms, String holder) {
    return new PushEpochs.Push(T0.plusMillis(ms), holder);
  }

  // fence 1 (a) from before 0 ms, fence 2 (b) claimed between 100 and 150 ms
  private final List<StateSampler.Sample> samples =
      List.of(sample(0, 1), sample(50, 1), sample(100, 1), sample(150, 2), sample(200, 2));
  private final Map<Long, String> owners = Map.of(1L, "a", 2L, "b");

  @Test
  @DisplayName("HA-26: pushes that follow the store's epochs are attributed one process per epoch")
  void ha26_soundHandoverPasses() {
    PushEpochs.Result r =
        PushEpochs.attribute(
            samples,
            owners,
            List.of(push(10, "a"), push(110, "a"), push(130, "b"), push(190, "b")));
    assertThat(r.problems()).isEmpty();
    assertThat(r.perEpoch()).containsEntry(1L, Map.of("a", 2)).containsEntry(2L, Map.of("b", 2));
  }

  @Test
  @DisplayName("HA-26: a push of the old holder after the new epoch is surely in the store fails")
  void ha26_stalePushFails() {
    PushEpochs.Result r =
        PushEpochs.attribute(samples, owners, List.of(push(10, "a"), push(180, "a")));
    assertThat(r.problems()).hasSize(1).first().asString().contains("a");
  }

  @Test
  @DisplayName("HA-26: pushes of two processes interleaved within one handover fail")
  void ha26_interleavedPushesFail() {
    PushEpochs.Result r =
        PushEpochs.attribute(
            samples, owners, List.of(push(110, "a"), push(120, "b"), push(130, "a")));
    assertThat(r.problems()).hasSize(1);
  }

  @Test
  @DisplayName("STATE-7: a decreasing fence epoch or a cursor moving back is a violation")
  void state7_backwardsIsAViolation() throws Exception {
    String at10 = "{\"ids\":[\"x\"],\"last_ts\":\"2026-12-03T07:10:00.000+0000\"}";
    String at09 = "{\"ids\":[\"y\"],\"last_ts\":\"2026-12-03T07:09:00.000+0000\"}";
    String key = "eventlog_objects:LoginHistory";
    assertThat(StateSampler.compare(Map.of(key, at09), Map.of(key, at10))).isEmpty();
    assertThat(StateSampler.compare(Map.of(key, at10), Map.of(key, at09))).hasSize(1);
    assertThat(
            StateSampler.compare(Map.of(StateSampler.FENCE, "5"), Map.of(StateSampler.FENCE, "4")))
        .hasSize(1);
    assertThat(StateSampler.compare(Map.of(), Map.of("pubsub:/event/X", "AAA="))).hasSize(1);
    assertThat(StateSampler.compare(Map.of(key, at10), Map.of())).hasSize(1);
  }
}
