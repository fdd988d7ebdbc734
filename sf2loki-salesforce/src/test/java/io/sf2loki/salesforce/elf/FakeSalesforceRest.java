package io.sf2loki.salesforce.elf;

import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.Spool;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * In-memory {@link SalesforceRest} for ELF tests: EventLogFile records per type, CSV bodies per
 * file id, and programmable failures. Honours the listing's EventType, CreatedDate lower bound and
 * LIMIT. Thread-safe.
 */
final class FakeSalesforceRest implements SalesforceRest {
  private static final Pattern TYPE = Pattern.compile("EventType='([^']*)'");
  private static final Pattern SINCE = Pattern.compile("CreatedDate >= (\\S+)");
  private static final Pattern LIMIT = Pattern.compile("LIMIT (\\d+)$");
  private static final Pattern FILE = Pattern.compile("/sobjects/EventLogFile/([^/]+)/LogFile$");

  private final Supplier<Instant> now;
  private final List<Map<String, Object>> files = new ArrayList<>();
  private final Map<String, byte[]> bodies = new HashMap<>();
  private final Map<String, Deque<Exception>> queryFailures = new HashMap<>();
  private final Map<String, Deque<DownloadException>> downloadFailures = new HashMap<>();
  private final List<String> queries = new ArrayList<>();
  private final List<String> downloads = new ArrayList<>();

  FakeSalesforceRest(Supplier<Instant> now) {
    this.now = now;
  }

  /** Adds a listed file with a CSV body. */
  synchronized FakeSalesforceRest file(
      String type, String id, String createdDate, String logDate, String csv) {
    return file(type, id, createdDate, logDate, csv.getBytes(StandardCharsets.UTF_8));
  }

  synchronized FakeSalesforceRest file(
      String type, String id, String createdDate, String logDate, byte[] body) {
    files.removeIf(f -> f.get("Id").equals(id));
    Map<String, Object> rec = new LinkedHashMap<>();
    rec.put("attributes", Map.of("type", "EventLogFile"));
    rec.put("Id", id);
    rec.put("EventType", type);
    rec.put("Interval", "Hourly");
    rec.put("LogDate", logDate);
    rec.put("CreatedDate", createdDate);
    rec.put("LogFileLength", (double) body.length);
    rec.put("Sequence", java.math.BigInteger.ONE);
    files.add(rec);
    bodies.put(id, body);
    return this;
  }

  /**
   * The next listing of {@code type} fails with {@code e} (queued, one per call); type {@code *}
   * targets the discovery query.
   */
  synchronized void failQuery(String type, Exception e) {
    queryFailures.computeIfAbsent(type, k -> new ArrayDeque<>()).add(e);
  }

  /** The next download of {@code id} fails with {@code e} (queued, one per call). */
  synchronized void failDownload(String id, DownloadException e) {
    downloadFailures.computeIfAbsent(id, k -> new ArrayDeque<>()).add(e);
  }

  synchronized List<String> queries() {
    return List.copyOf(queries);
  }

  synchronized List<String> downloads() {
    return List.copyOf(downloads);
  }

  @Override
  public synchronized List<Map<String, Object>> query(String soql) throws SoqlException {
    queries.add(soql);
    Matcher tm = TYPE.matcher(soql);
    String type = tm.find() ? tm.group(1) : "";
    if (soql.contains("GROUP BY EventType")) {
      Deque<Exception> fail = queryFailures.get("*");
      if (fail != null && !fail.isEmpty()) {
        throw (SoqlException) fail.poll();
      }
      return files.stream()
          .map(f -> (String) f.get("EventType"))
          .distinct()
          .sorted()
          .map(t -> (Map<String, Object>) new LinkedHashMap<String, Object>(Map.of("EventType", t)))
          .toList();
    }
    Deque<Exception> fail = queryFailures.get(type);
    if (fail != null && !fail.isEmpty()) {
      Exception e = fail.poll();
      if (e instanceof SoqlException se) {
        throw se;
      }
      throw (RuntimeException) e;
    }
    Matcher sm = SINCE.matcher(soql);
    Instant since =
        sm.find() ? SalesforceTimestamps.parse(sm.group(1)).orElseThrow() : Instant.EPOCH;
    Matcher lm = LIMIT.matcher(soql);
    int limit = lm.find() ? Integer.parseInt(lm.group(1)) : Integer.MAX_VALUE;
    return files.stream()
        .filter(f -> f.get("EventType").equals(type))
        .filter(
            f ->
                !SalesforceTimestamps.parse((String) f.get("CreatedDate"))
                    .orElseThrow()
                    .isBefore(since))
        .sorted(
            Comparator.comparing(
                    (Map<String, Object> f) ->
                        SalesforceTimestamps.parse((String) f.get("CreatedDate")).orElseThrow())
                .thenComparing(f -> (String) f.get("Id")))
        .limit(limit)
        .map(f -> (Map<String, Object>) new LinkedHashMap<>(f))
        .toList();
  }

  @Override
  public Spool download(String path, DownloadValidator.Expectation expected)
      throws DownloadException {
    byte[] body;
    synchronized (this) {
      downloads.add(path);
      Matcher m = FILE.matcher(path);
      if (!m.find()) {
        throw new DownloadException("bad path " + path, 404, null, null);
      }
      String id = m.group(1);
      Deque<DownloadException> fail = downloadFailures.get(id);
      if (fail != null && !fail.isEmpty()) {
        throw fail.poll();
      }
      body = bodies.get(id);
      if (body == null) {
        throw new DownloadException("not found", 404, "NOT_FOUND", null);
      }
    }
    byte[] b = body;
    return new Spool() {
      @Override
      public long sizeBytes() {
        return b.length;
      }

      @Override
      public InputStream open() {
        return new ByteArrayInputStream(b);
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public String apiVersion() {
    return "60.0";
  }

  @Override
  public Instant serverNow() {
    return now.get();
  }
}
