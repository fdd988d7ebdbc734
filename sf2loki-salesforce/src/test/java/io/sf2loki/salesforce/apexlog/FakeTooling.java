package io.sf2loki.salesforce.apexlog;

import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.MemorySpool;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.Spool;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Tooling stand-in for unit tests: evaluates the APX-1 listing shapes against an in-memory list
 * of logs (whole result returned at once), serves bodies, and lets a test script failures.
 */
final class FakeTooling implements ToolingApi {
  static final DateTimeFormatter SF =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx", Locale.ROOT)
          .withZone(ZoneOffset.UTC);
  private static final Pattern GE = Pattern.compile("WHERE StartTime >= (\\S+) ");
  private static final Pattern COMPOUND =
      Pattern.compile(
          "WHERE \\(StartTime > (\\S+) OR \\(StartTime = (\\S+) AND Id > '((?:[^'\\\\]|\\\\.)*)'\\)\\)");
  private static final Pattern USERS = Pattern.compile("LogUser\\.Username IN \\((.*)\\) ORDER");
  private static final Pattern LIT = Pattern.compile("'((?:[^'\\\\]|\\\\.)*)'");

  /** One log. */
  static final class Log {
    final Map<String, Object> record;
    final String user;
    final byte[] body;

    Log(Map<String, Object> record, String user, byte[] body) {
      this.record = record;
      this.user = user;
      this.body = body;
    }

    String id() {
      return (String) record.get("Id");
    }

    Instant start() {
      return Instant.from(SF.parse((String) record.get("StartTime")));
    }
  }

  private final Supplier<Instant> now;
  private final List<Log> logs = new ArrayList<>();
  private final List<String> queries = new ArrayList<>();
  private final List<String> downloads = new ArrayList<>();
  private final Deque<SoqlException> listingFailures = new ArrayDeque<>();
  private final Map<Integer, SoqlException> listingFailureAtCall = new HashMap<>();
  private final Map<String, Deque<DownloadException>> bodyFailures = new HashMap<>();
  private List<Map<String, Object>> fixedResult;
  private int seq;

  FakeTooling(Supplier<Instant> now) {
    this.now = now;
  }

  static String id(int n) {
    return String.format(Locale.ROOT, "07Lxx%010dAAA", n);
  }

  /** Adds a log with a typical record; {@code LogLength} = body size. */
  Log add(String user, Instant start, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    Map<String, Object> r = new LinkedHashMap<>();
    String id = id(++seq);
    r.put(
        "attributes",
        Map.of("type", "ApexLog", "url", "/services/data/v60.0/tooling/sobjects/ApexLog/" + id));
    r.put("Id", id);
    r.put("LogUserId", "005xx0000000001AAA");
    r.put("LogLength", BigInteger.valueOf(bytes.length));
    r.put("Operation", "/services/data/v60.0/sobjects/Account");
    r.put("Request", "API");
    r.put("Status", "Success");
    r.put("StartTime", SF.format(start));
    r.put("Application", "Unknown");
    r.put("DurationMilliseconds", BigInteger.valueOf(143));
    r.put("Location", "Monitoring");
    Log log = new Log(r, user, bytes);
    logs.add(log);
    return log;
  }

  /** Every listing query returns exactly these records (for stall tests). */
  void fixResult(List<Map<String, Object>> records) {
    this.fixedResult = records;
  }

  /** The next listing call throws {@code e}. */
  void failNextListing(SoqlException e) {
    listingFailures.add(e);
  }

  /** The listing call number {@code n} (1-based, over the fake's life) throws {@code e}. */
  void failListingCall(int n, SoqlException e) {
    listingFailureAtCall.put(n, e);
  }

  /** The next body downloads of {@code id} throw these, in order. */
  void failBody(String id, DownloadException... failures) {
    Deque<DownloadException> q = bodyFailures.computeIfAbsent(id, k -> new ArrayDeque<>());
    q.addAll(List.of(failures));
  }

  List<String> queries() {
    return queries;
  }

  List<String> downloads() {
    return downloads;
  }

  long downloadsOf(String id) {
    return downloads.stream().filter(p -> p.contains("/" + id + "/")).count();
  }

  @Override
  public List<Map<String, Object>> toolingQuery(String soql) throws SoqlException {
    queries.add(soql);
    SoqlException at = listingFailureAtCall.remove(queries.size());
    if (at != null) {
      throw at;
    }
    if (!listingFailures.isEmpty()) {
      throw listingFailures.poll();
    }
    if (fixedResult != null) {
      return fixedResult;
    }
    Instant from;
    String afterId = null;
    boolean inclusive;
    Matcher c = COMPOUND.matcher(soql);
    Matcher g = GE.matcher(soql);
    if (c.find()) {
      from = Instant.parse(c.group(1));
      afterId = unescape(c.group(3));
      inclusive = false;
    } else if (g.find()) {
      from = Instant.parse(g.group(1));
      inclusive = true;
    } else {
      throw new SoqlException("unexpected query " + soql, 400, "MALFORMED_QUERY", null);
    }
    Set<String> users = null;
    Matcher u = USERS.matcher(soql);
    if (u.find()) {
      users = new HashSet<>();
      Matcher l = LIT.matcher(u.group(1));
      while (l.find()) {
        users.add(unescape(l.group(1)));
      }
    }
    final String after = afterId;
    final Set<String> us = users;
    return logs.stream()
        .filter(
            x ->
                inclusive
                    ? !x.start().isBefore(from)
                    : x.start().isAfter(from)
                        || (x.start().equals(from) && x.id().compareTo(after) > 0))
        .filter(x -> us == null || us.contains(x.user))
        .sorted(Comparator.comparing(Log::start).thenComparing(Log::id))
        .limit(ApexLogSoql.PAGE_SIZE)
        .map(x -> (Map<String, Object>) new LinkedHashMap<>(x.record))
        .toList();
  }

  @Override
  public Spool downloadBody(String path, DownloadValidator.Expectation expected)
      throws DownloadException {
    downloads.add(path);
    for (Log l : logs) {
      if (path.equals("/services/data/v60.0/tooling/sobjects/ApexLog/" + l.id() + "/Body")) {
        Deque<DownloadException> q = bodyFailures.get(l.id());
        if (q != null && !q.isEmpty()) {
          throw q.poll();
        }
        return new MemorySpool(l.body);
      }
    }
    throw new DownloadException("HTTP 404: not found", 404, "NOT_FOUND", null);
  }

  @Override
  public String apiVersion() {
    return "60.0";
  }

  @Override
  public Instant serverNow() {
    return now.get();
  }

  private static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '\\' && i + 1 < s.length()) {
        ch = s.charAt(++i);
      }
      b.append(ch);
    }
    return b.toString();
  }
}
