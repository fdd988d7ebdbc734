package io.sf2loki.salesforce.elf;

import io.sf2loki.salesforce.source.Soql;

/**
 * SOQL text of the EventLogFile source (SPEC ELF-5, ELF-2, SRC-18): built only from validated
 * identifiers and escaped literals.
 */
final class ElfSoql {
  private ElfSoql() {}

  /**
   * ELF-5 listing query.
   *
   * @param eventType EventType, a SOQL identifier (CFG-10)
   * @param interval {@code Hourly} or {@code Daily}
   * @param sinceRaw stored raw CreatedDate (or the ELF-4 default), normalised per SRC-16
   * @param pageSize LIMIT
   * @param omitInterval true once the org rejected {@code Interval}/{@code Sequence} (ELF-5 daily
   *     fallback): both the column list and the filter leave them out
   * @throws IllegalArgumentException when {@code eventType} is not a SOQL identifier
   */
  static String listing(
      String eventType, String interval, String sinceRaw, int pageSize, boolean omitInterval) {
    Soql.identifier(eventType);
    StringBuilder q = new StringBuilder(256);
    q.append("SELECT Id,EventType,");
    if (!omitInterval) {
      q.append("Interval,");
    }
    q.append("LogDate,CreatedDate,LogFileLength");
    if (!omitInterval) {
      q.append(",Sequence");
    }
    q.append(" FROM EventLogFile WHERE EventType=").append(Soql.string(eventType));
    if (!omitInterval) {
      q.append(" AND Interval=").append(Soql.string(interval));
    }
    q.append(" AND CreatedDate >= ").append(SalesforceTimestamps.soqlLiteral(sinceRaw));
    q.append(" ORDER BY CreatedDate, Id LIMIT ").append(pageSize);
    return q.toString();
  }

  /** ELF-2 discovery query (for the {@code *} entry). */
  static String discovery(String interval, boolean omitInterval) {
    if (omitInterval) {
      return "SELECT EventType FROM EventLogFile GROUP BY EventType";
    }
    return "SELECT EventType FROM EventLogFile WHERE Interval="
        + Soql.string(interval)
        + " GROUP BY EventType";
  }
}
