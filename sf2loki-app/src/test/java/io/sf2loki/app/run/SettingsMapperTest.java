package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.EventLogFileConfig;
import io.sf2loki.app.config.EventTypeConfig;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SettingsMapperTest {
  @Test
  @DisplayName(
      "CFG-17: a repeated event type (any case) is ignored; the first entry's settings apply")
  void cfg17_duplicateEventTypesIgnored() {
    EventLogFileConfig elf =
        new EventLogFileConfig(
            true,
            EventLogFileConfig.Interval.HOURLY,
            List.of(
                new EventTypeConfig("Login", Optional.empty(), List.of(), 1.0),
                new EventTypeConfig("login", Optional.empty(), List.of(), 0.5),
                new EventTypeConfig("API", Optional.empty(), List.of(), 1.0)),
            List.of(),
            Duration.ofHours(1),
            Duration.ofHours(24),
            "TIMESTAMP_DERIVED",
            1000,
            Duration.ofMinutes(5),
            Duration.ofHours(24),
            List.of(),
            4);
    EventLogFileSettings s = SettingsMapper.eventLogFile(elf, List.of(), false);
    assertThat(s.eventTypes())
        .extracting(
            EventLogFileSettings.EventTypeSettings::name,
            EventLogFileSettings.EventTypeSettings::sample)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Login", 1.0),
            org.assertj.core.groups.Tuple.tuple("API", 1.0));
  }
}
