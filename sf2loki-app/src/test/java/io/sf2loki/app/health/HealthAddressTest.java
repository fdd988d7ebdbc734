package io.sf2loki.app.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HealthAddressTest {
  @Test
  void parsesHostPortForms() {
    assertThat(HealthAddress.parse(":8080")).isEqualTo(new HealthAddress("", 8080));
    assertThat(HealthAddress.parse(":0").port()).isZero();
    assertThat(HealthAddress.parse("127.0.0.1:9")).isEqualTo(new HealthAddress("127.0.0.1", 9));
    assertThat(HealthAddress.parse("[::1]:80")).isEqualTo(new HealthAddress("::1", 80));
    assertThat(HealthAddress.parse("[::1]:80").toString()).isEqualTo("[::1]:80");
    assertThat(HealthAddress.parse(":8080").bindAddress().getAddress().isAnyLocalAddress())
        .isTrue();
  }

  @Test
  void probeHostIsLoopbackForWildcards() {
    assertThat(HealthAddress.parse(":8080").probeHost()).isEqualTo("127.0.0.1");
    assertThat(HealthAddress.parse("0.0.0.0:8080").probeHost()).isEqualTo("127.0.0.1");
    assertThat(HealthAddress.parse("[::]:8080").probeHost()).isEqualTo("[::1]");
    assertThat(HealthAddress.parse("example.org:1").probeHost()).isEqualTo("example.org");
  }

  @Test
  void rejectsMalformed() {
    for (String bad : new String[] {"8080", "host:", "host:x", "h:70000", "::1:80", "[::1:80"}) {
      assertThatThrownBy(() -> HealthAddress.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
