package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.salesforce.revisit.RevisitSettings;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The revisit keys of objects[] and apexlog (SPEC §1.3, OBJ-13…OBJ-15, APX-10). */
class RevisitConfigTest {
  @TempDir Path dir;

  private static String cfg(String objectKeys, String apexKeys) {
    return MINIMAL.replace(
        "  pubsub:\n    topics: [/event/LoginEventStream]\n",
        "  pubsub: {enabled: false}\n"
            + "  eventlog_objects:\n    enabled: true\n    objects:\n"
            + "      - name: LoginHistory\n        timestamp_field: LoginTime\n"
            + objectKeys
            + "  apexlog:\n    enabled: true\n"
            + apexKeys);
  }

  @Test
  @DisplayName(
      "OBJ-13, OBJ-14, APX-10: revisit defaults 30m / 5m / 20000; explicit values bind;"
          + " revisit_window 0 switches it off")
  void obj14_defaultsAndOff() {
    Sf2lokiConfig d = load(dir, cfg("", ""));
    var o = d.orgs().getFirst().sources();
    assertThat(o.eventlogObjects().settings().objects().getFirst().revisit())
        .isEqualTo(RevisitSettings.DEFAULTS)
        .isEqualTo(new RevisitSettings(Duration.ofMinutes(30), Duration.ofMinutes(5), 20_000));
    assertThat(o.apexlog().settings().revisit()).isEqualTo(RevisitSettings.DEFAULTS);

    Sf2lokiConfig c =
        load(
            dir,
            cfg(
                "        revisit_window: 0\n",
                "    revisit_window: 10m\n    revisit_interval: 30s\n    revisit_max_keys: 5\n"));
    o = c.orgs().getFirst().sources();
    assertThat(o.eventlogObjects().settings().objects().getFirst().revisit().window()).isZero();
    assertThat(o.apexlog().settings().revisit())
        .isEqualTo(new RevisitSettings(Duration.ofMinutes(10), Duration.ofSeconds(30), 5));
  }

  @Test
  @DisplayName(
      "OBJ-15: a zero interval or max_keys outside 1…50000 is rejected with the dotted path")
  void obj15_invalidRejected() {
    assertThatThrownBy(() -> load(dir, cfg("        revisit_interval: 0s\n", "")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sources.eventlog_objects.objects.0.revisit_interval");
    assertThatThrownBy(() -> load(dir, cfg("", "    revisit_max_keys: 0\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sources.apexlog.revisit_max_keys");
    assertThatThrownBy(() -> load(dir, cfg("        revisit_max_keys: 50001\n", "")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sources.eventlog_objects.objects.0.revisit_max_keys");
  }
}
