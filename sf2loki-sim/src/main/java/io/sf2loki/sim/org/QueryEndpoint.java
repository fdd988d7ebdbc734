package io.sf2loki.sim.org;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /services/data/v{api}/query?q=} and its {@code nextRecordsUrl} pages (SRC-17): object
 * queries go to the {@link ObjectQueryEndpoint}, the rest are the EventLogFile shapes of {@link
 * EventLogFileQuery} (ELF-2, ELF-5) over the org's files, with Salesforce's INVALID_FIELD wording
 * ({@link SoqlErrorEcho}). Thread-safe.
 */
final class QueryEndpoint {
  private static final Pattern QUERY_MORE = Pattern.compile("^([0-9A-Za-z]+)-(\\d{1,9})$");

  private record Cursor(List<Map<String, Object>> records) {}

  private final String apiVersion;
  private final int batchSize;
  private final boolean hourlyAvailable;
  private final SoqlErrorEcho errorEcho;
  private final Map<String, Object> secondError;
  private final ObjectQueryEndpoint objectQueries;
  private final Function<EventLogFileQuery, List<SimLogFile>> matchingFiles;
  private final SimResponses respond;
  private final Map<String, Cursor> cursors = new ConcurrentHashMap<>();
  private final AtomicLong cursorSeq = new AtomicLong();

  QueryEndpoint(
      String apiVersion,
      int batchSize,
      boolean hourlyAvailable,
      SoqlErrorEcho errorEcho,
      Map<String, Object> secondError,
      ObjectQueryEndpoint objectQueries,
      Function<EventLogFileQuery, List<SimLogFile>> matchingFiles,
      SimResponses respond) {
    this.apiVersion = apiVersion;
    this.batchSize = batchSize;
    this.hourlyAvailable = hourlyAvailable;
    this.errorEcho = errorEcho;
    this.secondError = secondError;
    this.objectQueries = objectQueries;
    this.matchingFiles = matchingFiles;
    this.respond = respond;
  }

  void query(HttpExchange ex) throws IOException {
    String q = SimResponses.queryParam(ex.getRequestURI().getRawQuery(), "q");
    if (objectQueries.handles(q)) { // eventlog_objects (OBJ, FEAT-18)
      try {
        sendPage(ex, objectQueries.answer(q), 0, null);
      } catch (SoqlRejection r) {
        respond.sfError(ex, r.status, r.errorCode, r.getMessage());
      }
      return;
    }
    EventLogFileQuery parsed;
    try {
      parsed = EventLogFileQuery.parse(q, hourlyAvailable);
    } catch (SoqlRejection r) {
      if (r.field == null) {
        respond.sfError(ex, r.status, r.errorCode, r.getMessage());
        return;
      }
      // Salesforce's real wording: the query echo, a caret, the position, then the reason
      Map<String, Object> err = new LinkedHashMap<>();
      err.put("message", errorEcho.message(q, r.field, r.getMessage()));
      err.put("errorCode", r.errorCode);
      respond.json(ex, r.status, secondError == null ? List.of(err) : List.of(err, secondError));
      return;
    }
    List<Map<String, Object>> records = evaluate(parsed);
    sendPage(ex, records, 0, null);
  }

  void queryMore(HttpExchange ex, String locatorAndOffset) throws IOException {
    Matcher m = QUERY_MORE.matcher(locatorAndOffset);
    Cursor c = m.matches() ? cursors.get(m.group(1)) : null;
    int offset = m.matches() ? Integer.parseInt(m.group(2)) : -1;
    if (c == null || offset < 0 || offset > c.records().size()) {
      respond.sfError(ex, 400, "INVALID_QUERY_LOCATOR", "invalid query locator");
      return;
    }
    sendPage(ex, c.records(), offset, m.group(1));
  }

  private void sendPage(
      HttpExchange ex, List<Map<String, Object>> records, int offset, String locator)
      throws IOException {
    int end = Math.min(records.size(), offset + batchSize);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("totalSize", records.size());
    boolean done = end >= records.size();
    body.put("done", done);
    if (!done) {
      String loc = locator;
      if (loc == null) {
        loc = String.format(Locale.ROOT, "01g%012dAAA", cursorSeq.incrementAndGet());
        cursors.put(loc, new Cursor(records));
      }
      body.put("nextRecordsUrl", "/services/data/v" + apiVersion + "/query/" + loc + "-" + end);
    } else if (locator != null) {
      cursors.remove(locator);
    }
    body.put("records", records.subList(offset, end));
    respond.json(ex, 200, body);
  }

  private List<Map<String, Object>> evaluate(EventLogFileQuery q) {
    List<SimLogFile> matching = new ArrayList<>(matchingFiles.apply(q));
    List<Map<String, Object>> out = new ArrayList<>();
    if (q.groupByEventType()) {
      Set<String> types = new TreeSet<>();
      matching.forEach(f -> types.add(f.eventType()));
      for (String t : types) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("attributes", Map.of("type", "AggregateResult"));
        r.put("EventType", t);
        out.add(r);
      }
      return limit(out, q.limit());
    }
    if (q.ordered()) {
      matching.sort(Comparator.comparing(SimLogFile::createdDate).thenComparing(SimLogFile::id));
    }
    for (SimLogFile f : limit(matching, q.limit())) {
      out.add(record(f, q.fields()));
    }
    return out;
  }

  private static <T> List<T> limit(List<T> list, int limit) {
    return limit >= 0 && list.size() > limit ? list.subList(0, limit) : list;
  }

  private Map<String, Object> record(SimLogFile f, List<String> fields) {
    String url = "/services/data/v" + apiVersion + "/sobjects/EventLogFile/" + f.id();
    Map<String, Object> r = new LinkedHashMap<>();
    Map<String, Object> attrs = new LinkedHashMap<>();
    attrs.put("type", "EventLogFile");
    attrs.put("url", url);
    r.put("attributes", attrs);
    for (String field : fields) {
      r.put(
          field,
          switch (field) {
            case "Id" -> f.id();
            case "EventType" -> f.eventType();
            case "Interval" -> f.interval();
            case "LogDate" -> SimOrg.SF_DATETIME.format(f.logDate());
            case "CreatedDate" -> SimOrg.SF_DATETIME.format(f.createdDate());
            case "LogFileLength" -> (double) f.length();
            case "Sequence" -> f.sequence();
            case "LogFile" -> url + "/LogFile";
            default -> throw new IllegalStateException(field);
          });
    }
    return r;
  }
}
