package io.sf2loki.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointMonitorTest {
  @TempDir Path dir;

  private void lease(String holder, long epoch) throws IOException {
    Files.writeString(
        dir.resolve("lease.json"),
        "{\"holder\":\""
            + holder
            + "\",\"expires_at\":\"2026-12-03T00:00:00Z\",\"epoch\":"
            + epoch
            + "}");
  }

  @Test
  @DisplayName(
      "FEAT-22, HA-10: a contender's lease write overwritten by the incumbent's renewal is a lease"
          + " race, not a violation")
  void feat22_incumbentRenewalOverContenderIsALeaseRace() throws Exception {
    try (var m = new CheckpointMonitor(dir.resolve("state.json"), dir.resolve("lease.json"))) {
      lease("replica-a", 3);
      m.sample();
      lease("replica-b", 4);
      m.sample();
      lease("replica-a", 3);
      m.sample();
      m.sample();

      assertThat(m.violations()).isEmpty();
      assertThat(m.leaseRaces()).containsExactly("lease epoch: 4 -> 3 (holder replica-a)");
      assertThat(m.epochChanges()).isEqualTo(1);
    }
  }

  @Test
  @DisplayName(
      "FEAT-22: a lease epoch lower than one seen, under a holder never seen at it, is a violation")
  void feat22_unseenLowerEpochIsAViolation() throws Exception {
    try (var m = new CheckpointMonitor(dir.resolve("state.json"), dir.resolve("lease.json"))) {
      lease("replica-a", 3);
      m.sample();
      lease("replica-b", 4);
      m.sample();
      lease("replica-b", 3);
      m.sample();

      assertThat(m.violations()).containsExactly("lease epoch: 4 -> 3 (holder replica-b)");
      assertThat(m.leaseRaces()).isEmpty();
    }
  }
}
