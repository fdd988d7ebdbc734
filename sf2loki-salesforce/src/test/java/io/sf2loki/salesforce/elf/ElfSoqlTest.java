package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.salesforce.source.Soql;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ElfSoqlTest {
  @Test
  @DisplayName("ELF-5: listing SOQL text exactly as specified")
  void elf5_listingText() {
    assertThat(ElfSoql.listing("Login", "Hourly", "2024-05-01T10:00:00.000+0000", 1000, false))
        .isEqualTo(
            "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM"
                + " EventLogFile WHERE EventType='Login' AND Interval='Hourly' AND CreatedDate >="
                + " 2024-05-01T10:00:00.000Z ORDER BY CreatedDate, Id LIMIT 1000");
  }

  @Test
  @DisplayName("ELF-5: without Interval/Sequence after the Daily INVALID_FIELD fallback")
  void elf5_listingWithoutInterval() {
    assertThat(ElfSoql.listing("API", "Daily", "2024-05-01T10:00:00Z", 7, true))
        .isEqualTo(
            "SELECT Id,EventType,LogDate,CreatedDate,LogFileLength FROM EventLogFile WHERE"
                + " EventType='API' AND CreatedDate >= 2024-05-01T10:00:00.000Z ORDER BY"
                + " CreatedDate, Id LIMIT 7");
    assertThat(ElfSoql.discovery("Daily", false))
        .isEqualTo("SELECT EventType FROM EventLogFile WHERE Interval='Daily' GROUP BY EventType");
  }

  @Test
  @DisplayName("SRC-16: datetime literals normalised to UTC YYYY-MM-DDTHH:MM:SS.mmmZ")
  void src16_literalNormalisation() {
    assertThat(SalesforceTimestamps.soqlLiteral("2024-05-01T12:30:00.123+0200"))
        .isEqualTo("2024-05-01T10:30:00.123Z");
    assertThat(SalesforceTimestamps.soqlLiteral("2024-05-01T12:30:00+02:00"))
        .isEqualTo("2024-05-01T10:30:00.000Z");
    assertThat(SalesforceTimestamps.soqlLiteral("2024-05-01T10:00:00Z"))
        .isEqualTo("2024-05-01T10:00:00.000Z");
    assertThat(SalesforceTimestamps.soqlLiteral("2024-05-01T10:00:00.1234567Z"))
        .isEqualTo("2024-05-01T10:00:00.123Z");
    assertThat(SalesforceTimestamps.soqlLiteral("garbage")).isEqualTo("garbage");
    assertThat(SalesforceTimestamps.defaultSince(Instant.parse("2024-05-01T10:00:00.999Z")))
        .isEqualTo("2024-05-01T10:00:00Z");
  }

  @Test
  @DisplayName("SRC-18: literals escape backslash and quote; identifiers are validated")
  void src18_literalsAndIdentifiers() {
    assertThat(Soql.string("a'b\\c")).isEqualTo("'a\\'b\\\\c'");
    assertThatThrownBy(() -> ElfSoql.listing("Login' OR Id!='", "Hourly", "x", 1, false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
