package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FailureStreakTest {
  @Test
  @DisplayName("SRC-19: failures escalate from the third in a row; a success resets the streak")
  void src19_escalation() {
    FailureStreak s = new FailureStreak();
    assertThat(s.fail()).isEqualTo(1);
    assertThat(s.escalated()).isFalse();
    s.fail();
    assertThat(s.escalated()).isFalse();
    assertThat(s.fail()).isEqualTo(3);
    assertThat(s.escalated()).isTrue();
    s.reset();
    assertThat(s.count()).isZero();
    assertThat(s.escalated()).isFalse();
  }
}
