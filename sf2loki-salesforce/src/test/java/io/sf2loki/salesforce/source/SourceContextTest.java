package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.salesforce.rest.RestTestSupport;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SourceContextTest {
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final FakeTime time = new FakeTime(Instant.parse("2024-06-05T06:00:00Z"));
  private final CursorCodec<Integer> codec =
      CursorCodec.of(
          v -> v.matches("\\d+") ? Optional.of(Integer.parseInt(v)) : Optional.empty(),
          String::valueOf);

  @AfterEach
  void close() {
    probe.close();
  }

  private SourceContext context(Map<String, String> stored) {
    return new SourceContext(
        time.timeSource(), Runnable::run, probe.metrics, k -> Optional.ofNullable(stored.get(k)));
  }

  private Integer load(SourceContext ctx) {
    return ctx.loadCursor(
        LoggerFactory.getLogger(SourceContextTest.class), "src", "src:k", codec, -1, "since", "m");
  }

  @Test
  @DisplayName("SRC-2: a stored cursor is decoded; none stored starts fresh without an error")
  void src2_loads() {
    assertThat(load(context(Map.of("src:k", "42")))).isEqualTo(42);
    assertThat(load(context(Map.of()))).isEqualTo(-1);
    assertThat(probe.counter("sf2loki_checkpoint_load_errors", attrs())).isZero();
    assertThat(codec.encode(42)).isEqualTo("42");
  }

  @Test
  @DisplayName("SRC-12: an unusable stored cursor starts fresh and is counted")
  void src12_unusableCounted() {
    assertThat(load(context(Map.of("src:k", "garbage")))).isEqualTo(-1);
    assertThat(probe.counter("sf2loki_checkpoint_load_errors", attrs())).isEqualTo(1);
  }

  @Test
  @DisplayName("OBS-14: the last-success gauge value is the wall clock in epoch seconds")
  void obs14_nowSeconds() {
    assertThat(context(Map.of()).nowEpochSeconds())
        .isEqualTo(Instant.parse("2024-06-05T06:00:00Z").getEpochSecond());
  }

  private static Attributes attrs() {
    return Attributes.of(Sf2lokiMetrics.SOURCE, "src");
  }
}
