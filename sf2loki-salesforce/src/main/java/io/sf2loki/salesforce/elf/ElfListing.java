package io.sf2loki.salesforce.elf;

import io.sf2loki.salesforce.rest.InvalidFieldException;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EventLogFile listing and discovery queries with the ELF-5 fallback for orgs without hourly
 * Event Monitoring: a 400 {@code INVALID_FIELD} whose error body (the whole body, SRC-27) names the
 * column {@code Interval} or {@code Sequence} switches both queries, for the rest of the process,
 * to the form without those fields when {@code interval: Daily}; the switch is logged once (WARN).
 * Thread-safe: the switch is one atomic flag shared by the concurrent type workers.
 */
final class ElfListing {
  private static final Logger log = LoggerFactory.getLogger(EventLogFileSource.class);

  private final SalesforceRest rest;
  private final EventLogFileSettings settings;
  private final AtomicBoolean omitInterval = new AtomicBoolean();

  ElfListing(SalesforceRest rest, EventLogFileSettings settings) {
    this.rest = Objects.requireNonNull(rest, "rest");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** ELF-2 discovery ({@code GROUP BY EventType}) with the ELF-5 fallback. */
  List<Map<String, Object>> discover() throws SoqlException, InterruptedException {
    String interval = settings.interval().name();
    while (true) {
      boolean omit = omitInterval.get();
      try {
        return rest.query(ElfSoql.discovery(interval, omit));
      } catch (InvalidFieldException e) {
        if (omit
            || settings.interval() != EventLogFileSettings.Interval.Daily
            || !namesIntervalFields(e)) {
          throw e;
        }
        switchToDaily(null);
      }
    }
  }

  /** ELF-5 listing of one type with the Daily {@code INVALID_FIELD} fallback. */
  List<Map<String, Object>> list(String type, String lastCreated)
      throws SoqlException, InterruptedException {
    String interval = settings.interval().name();
    while (true) {
      boolean omit = omitInterval.get();
      String soql = ElfSoql.listing(type, interval, lastCreated, settings.pageSize(), omit);
      try {
        return rest.query(soql);
      } catch (InvalidFieldException e) {
        if (omit || !namesIntervalFields(e)) {
          throw e;
        }
        if (settings.interval() == EventLogFileSettings.Interval.Hourly) {
          throw new SoqlException(
              "hourly event log files are not available to this user (the org rejected the"
                  + " Interval/Sequence fields); 'interval: Daily' reads the daily files",
              e.status(),
              e.errorCode(),
              e.errorCodes(),
              e);
        }
        switchToDaily(type);
      }
    }
  }

  private void switchToDaily(String type) {
    if (omitInterval.compareAndSet(false, true)) {
      var event = log.atWarn().addKeyValue("source", "eventlogfile");
      if (type != null) {
        event = event.addKeyValue("event_type", type);
      }
      event.log(
          "EventLogFile has no Interval/Sequence fields for this user; listing daily files"
              + " without them from now on");
    }
  }

  /**
   * Whether the rejected columns include {@code Interval} or {@code Sequence}; when Salesforce
   * named no column, whether its message mentions either.
   */
  static boolean namesIntervalFields(InvalidFieldException e) {
    List<String> fields = e.fields();
    if (fields.isEmpty()) {
      String msg = String.valueOf(e.getMessage());
      return msg.contains("Interval") || msg.contains("Sequence");
    }
    for (String f : fields) {
      String n = f.toLowerCase(Locale.ROOT);
      if (n.equals("interval") || n.equals("sequence")) {
        return true;
      }
    }
    return false;
  }
}
