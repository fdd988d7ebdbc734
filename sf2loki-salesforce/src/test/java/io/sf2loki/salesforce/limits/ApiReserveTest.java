package io.sf2loki.salesforce.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.salesforce.rest.RestTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ApiReserveTest {
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final ApiReserve reserve = new ApiReserve(10, probe.metrics);

  @AfterEach
  void close() {
    probe.close();
  }

  private double gauge() {
    return probe.metrics.salesforceApiReservePaused.get(Attributes.empty());
  }

  @Test
  @DisplayName(
      "OBS-21: Remaining under p % of Max closes the gate, sets the gauge and the readiness"
          + " reason; Remaining at the reserve opens it again")
  void obs21_pauseAndResume() {
    reserve.observe(new OrgLimits.Limit(15000, 1501));
    assertThat(reserve.open()).isTrue();
    assertThat(reserve.degradation()).isEmpty();

    reserve.observe(new OrgLimits.Limit(15000, 1499));
    assertThat(reserve.open()).isFalse();
    assertThat(reserve.paused()).isTrue();
    assertThat(gauge()).isEqualTo(1.0);
    assertThat(reserve.degradation()).contains("degraded: API reserve reached");

    reserve.observe(new OrgLimits.Limit(15000, 10)); // still under: stays paused
    assertThat(reserve.open()).isFalse();

    reserve.observe(new OrgLimits.Limit(15000, 1500)); // exactly the reserve: Remaining >= it
    assertThat(reserve.open()).isTrue();
    assertThat(gauge()).isEqualTo(0.0);
    assertThat(reserve.degradation()).isEmpty();
  }

  @Test
  @DisplayName("OBS-21: Max 0 never pauses (0 < 0 is false); the percent must be in (0, 100]")
  void obs21_edges() {
    reserve.observe(new OrgLimits.Limit(0, 0));
    assertThat(reserve.open()).isTrue();
    assertThatThrownBy(() -> new ApiReserve(0, probe.metrics))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ApiReserve(100.5, probe.metrics))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
