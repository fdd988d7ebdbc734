package io.sf2loki.app.statecmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CLI-9 lease awareness and the HA-9 reading rules of {@link FileLeaseInspector}. */
class LeaseAwarenessTest {
  private static final Instant NOW = Instant.parse("2026-12-02T08:00:00Z");
  @TempDir Path dir;

  private Sf2lokiConfig fileLeaseConfig(Path lease) throws Exception {
    Path cfg =
        Files.writeString(
            dir.resolve("c.yaml"),
            """
            salesforce:
              login_url: "http://127.0.0.1:9"
              client_id: "x"
              auth_mode: client_credentials
              client_secret: "y"
            sink:
              loki:
                url: "http://127.0.0.1:9/loki/api/v1/push"
            state:
              file:
                path: "%s"
            coordinate:
              type: file_lease
              file_lease:
                path: "%s"
            """
                .formatted(dir.resolve("state.json"), lease));
    return new ConfigLoader().load(cfg, Map.of());
  }

  @Test
  @DisplayName(
      "CLI-9: a held, unexpired file lease refuses state writes naming holder and expiry; an"
          + " expired or absent lease does not")
  void fileLeaseRefusal() throws Exception {
    Path lease = dir.resolve("leader.lease");
    Sf2lokiConfig cfg = fileLeaseConfig(lease);
    Files.writeString(
        lease, "{\"holder\":\"pod-a\",\"expires_at\":\"2026-12-02T08:00:30+00:00\",\"epoch\":3}");
    assertThatThrownBy(() -> StateCommands.WriteGuard.check(cfg, false, NOW))
        .isInstanceOf(StateRefusedException.class)
        .hasMessageContaining("held by pod-a until 2026-12-02T08:00:30Z")
        .hasMessageEndingWith("stop the daemon first, or pass --force");
    assertThatCode(() -> StateCommands.WriteGuard.check(cfg, false, NOW.plusSeconds(31)))
        .doesNotThrowAnyException();
    Files.delete(lease);
    assertThatCode(() -> StateCommands.WriteGuard.check(cfg, false, NOW))
        .doesNotThrowAnyException();
  }

  @Test
  @DisplayName(
      "HA-9: invalid JSON, a missing holder or an unparseable date is an absent lease; a date"
          + " without offset is UTC")
  void ha9Reading() throws Exception {
    Path lease = dir.resolve("l");
    FileLeaseInspector in = new FileLeaseInspector(lease);
    Files.writeString(lease, "{oops");
    assertThat(in.read().holder()).isEmpty();
    Files.writeString(lease, "{\"expires_at\":\"2026-12-02T08:00:30Z\"}");
    assertThat(in.read().holder()).isEmpty();
    Files.writeString(lease, "{\"holder\":\"a\",\"expires_at\":\"soon\"}");
    assertThat(in.read().holder()).isEmpty();
    Files.writeString(lease, "{\"holder\":\"a\",\"expires_at\":\"2026-12-02T08:00:30\"}");
    assertThat(in.read().expiresAt()).contains(Instant.parse("2026-12-02T08:00:30Z"));
    assertThat(in.read().heldAt(NOW)).isTrue();
  }

  @Test
  @DisplayName("CLI-9: a lease that cannot be read also refuses")
  void unreadableLeaseRefuses() throws Exception {
    Path lease = dir.resolve("dir-not-file");
    Files.createDirectories(lease);
    Sf2lokiConfig cfg = fileLeaseConfig(lease);
    assertThatThrownBy(() -> StateCommands.WriteGuard.check(cfg, false, NOW))
        .isInstanceOf(StateRefusedException.class)
        .hasMessageContaining("cannot read lease file");
  }
}
