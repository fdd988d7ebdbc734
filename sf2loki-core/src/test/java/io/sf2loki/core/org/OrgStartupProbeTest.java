package io.sf2loki.core.org;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.sf2loki.core.time.StopSignal;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgStartupProbeTest {
  private static OrgStartupProbe.Org ok(String name, String id) {
    return new OrgStartupProbe.Org(name, stop -> id, () -> true);
  }

  private static OrgStartupProbe.Org failing(String name, String error, AtomicBoolean valid) {
    return new OrgStartupProbe.Org(
        name,
        stop -> {
          throw new IllegalStateException(error);
        },
        valid::get);
  }

  @Test
  @DisplayName("ORG-7: all orgs probe concurrently (each waits for the others to have started)")
  void org7_concurrent() throws Exception {
    CountDownLatch started = new CountDownLatch(3);
    List<OrgStartupProbe.Org> orgs =
        List.of("a", "b", "c").stream()
            .map(
                n ->
                    new OrgStartupProbe.Org(
                        n,
                        stop -> {
                          started.countDown();
                          started.await(); // deadlocks unless the three run at once
                          return "id-" + n;
                        },
                        () -> true))
            .toList();
    OrgStartupProbe.Result r = new OrgStartupProbe(orgs).run(new StopSignal());
    assertThat(r.orgIds())
        .containsExactly(
            java.util.Map.entry("a", "id-a"),
            java.util.Map.entry("b", "id-b"),
            java.util.Map.entry("c", "id-c"));
    assertThat(r.allFailed()).isFalse();
  }

  @Test
  @DisplayName(
      "ORG-7, ORG-12: every org failing → allFailed with the first failure in configuration order")
  void org7_allFail() throws Exception {
    AtomicBoolean never = new AtomicBoolean();
    OrgStartupProbe probe =
        new OrgStartupProbe(
            List.of(
                failing("a", "invalid_grant a", never), failing("b", "invalid_grant b", never)));
    OrgStartupProbe.Result r = probe.run(new StopSignal());
    assertThat(r.allFailed()).isTrue();
    assertThat(r.firstFailure().orElseThrow().getKey()).isEqualTo("a");
    assertThat(r.firstFailure().orElseThrow().getValue()).hasMessage("invalid_grant a");
  }

  @Test
  @DisplayName(
      "ORG-7, ORG-12: some fail → ERROR per failed org; readiness names the first failed org until"
          + " it holds a valid token, then the next")
  void org7_degradedUntilValidToken() throws Exception {
    AtomicBoolean bValid = new AtomicBoolean();
    AtomicBoolean cValid = new AtomicBoolean();
    OrgStartupProbe probe =
        new OrgStartupProbe(
            List.of(ok("a", "id-a"), failing("b", "x", bValid), failing("c", "y", cValid)));
    assertThat(probe.degradation()).isEmpty(); // nothing known before the probe
    try (LogCapture logs = new LogCapture(OrgStartupProbe.class)) {
      OrgStartupProbe.Result r = probe.run(new StopSignal());
      assertThat(r.allFailed()).isFalse();
      assertThat(r.failures()).containsOnlyKeys("b", "c");
      assertThat(logs.levels()).containsExactly(Level.ERROR, Level.ERROR);
      assertThat(logs.events()).extracting(e -> LogCapture.kv(e, "org")).containsExactly("b", "c");
    }
    assertThat(probe.degradation()).contains("degraded: org b auth failing");
    bValid.set(true);
    assertThat(probe.degradation()).contains("degraded: org c auth failing");
    bValid.set(false); // b held a valid token once: cleared for good
    cValid.set(true);
    assertThat(probe.degradation()).isEmpty();
  }
}
