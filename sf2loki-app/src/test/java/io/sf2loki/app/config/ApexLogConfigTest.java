package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApexLogConfigTest {
  @TempDir Path dir;

  private static String apex(String users) {
    return MINIMAL.replace(
        "  pubsub:\n    topics: [/event/LoginEventStream]\n",
        "  pubsub: {enabled: false}\n  apexlog:\n    enabled: true\n    users: " + users + "\n");
  }

  @Test
  @DisplayName(
      "CFG-10/SRC-18: an apexlog username with a quote or SOQL injection is rejected at load with"
          + " the dotted path")
  void quotedUsernameRejected() {
    assertThatThrownBy(() -> load(dir, apex("[ok@x.com, \"o'brien@x.com\"]")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sources.apexlog.users.1");
    assertThatThrownBy(() -> load(dir, apex("[\"x') OR Id != ('\"]")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sources.apexlog.users.0");
  }

  @Test
  @DisplayName("CFG-10: valid usernames load unchanged")
  void validUsernames() {
    Sf2lokiConfig cfg = load(dir, apex("[a.b+c@x.example.com, 'd_e-f%g@x.com']"));
    assertThat(cfg.orgs().getFirst().sources().apexlog().settings().users())
        .containsExactly("a.b+c@x.example.com", "d_e-f%g@x.com");
  }
}
