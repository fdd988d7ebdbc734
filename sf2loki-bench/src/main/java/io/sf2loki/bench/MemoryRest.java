package io.sf2loki.bench;

import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.MemorySpool;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.Spool;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link SalesforceRest} serving pre-generated EventLogFile CSV from memory — no HTTP and no
 * simulator, so the end-to-end number measures sf2loki, not the fake org. Every type has {@code
 * files} hourly files; all files of one type share one CSV body (generated once). Thread-safe.
 */
final class MemoryRest implements SalesforceRest {
  private static final DateTimeFormatter SF =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'+0000'").withZone(ZoneOffset.UTC);
  private static final Pattern TYPE = Pattern.compile("EventType='([A-Za-z0-9_]+)'");
  private static final Pattern FILE = Pattern.compile("/EventLogFile/([^/]+)/LogFile$");

  private final Map<String, List<Map<String, Object>>> listings = new LinkedHashMap<>();
  private final Map<String, byte[]> bodies = new LinkedHashMap<>();

  /**
   * @param csvByType EventType → CSV body served for each of its files
   * @param files files per type
   */
  MemoryRest(Map<String, byte[]> csvByType, int files) {
    Instant base = Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    int t = 0;
    for (Map.Entry<String, byte[]> e : csvByType.entrySet()) {
      List<Map<String, Object>> recs = new ArrayList<>();
      for (int f = 0; f < files; f++) {
        String id = String.format("0AT%02d%010dAAA", t, f);
        Instant created = base.plusSeconds(f * 60L + t);
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("Id", id);
        rec.put("EventType", e.getKey());
        rec.put("Interval", "Hourly");
        rec.put("LogDate", SF.format(created.truncatedTo(ChronoUnit.HOURS)));
        rec.put("CreatedDate", SF.format(created));
        rec.put("LogFileLength", (double) e.getValue().length);
        rec.put("Sequence", java.math.BigInteger.ONE);
        recs.add(rec);
        bodies.put(id, e.getValue());
      }
      listings.put(e.getKey(), List.copyOf(recs));
      t++;
    }
  }

  @Override
  public List<Map<String, Object>> query(String soql) {
    Matcher m = TYPE.matcher(soql);
    if (!m.find()) {
      return List.of();
    }
    return listings.getOrDefault(m.group(1), List.of());
  }

  @Override
  public Spool download(String path, DownloadValidator.Expectation expected)
      throws DownloadException {
    Matcher m = FILE.matcher(path);
    byte[] body = m.find() ? bodies.get(m.group(1)) : null;
    if (body == null) {
      throw new DownloadException("not found: " + path, 404, "NOT_FOUND", null);
    }
    return new MemorySpool(body);
  }

  @Override
  public String apiVersion() {
    return "60.0";
  }

  @Override
  public Instant serverNow() {
    return Instant.now();
  }
}
