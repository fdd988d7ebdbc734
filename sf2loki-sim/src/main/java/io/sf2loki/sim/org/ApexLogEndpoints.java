package io.sf2loki.sim.org;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import io.sf2loki.sim.elf.SalesforceIds;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ApexLog endpoints of a {@link SimOrg} (SPEC APX-1, APX-5, SRC-17), reached through {@link
 * SimOrg#apexLogs()}:
 *
 * <ul>
 *   <li>{@code GET /services/data/v{api}/tooling/query?q=} accepting exactly the APX-1 listing and
 *       the APX-10 revisit shapes (see {@link ApexLogQueries}); any other query answers 400 {@code
 *       MALFORMED_QUERY}. A log added with {@link #addLate} is listed only from its visibility
 *       instant on the org's clock. Results come in batches of {@link #batchSize(int)} records with
 *       {@code nextRecordsUrl} {@code /services/data/v{api}/tooling/query/<locator>-<offset>}.
 *   <li>{@code GET /services/data/v{api}/tooling/sobjects/ApexLog/<Id>/Body}: {@code text/plain}
 *       body, 404 {@code NOT_FOUND} for an unknown or removed log.
 * </ul>
 *
 * Faults: {@link #failBody(String, Fault)} queues per-log body faults (e.g. {@code
 * Fault.status(500).times(2)}: fail twice, then succeed); {@link #failListingAfter(int, Fault)}
 * faults a later listing query (e.g. the second page of a drain). Call counters: {@link
 * #listingCalls()}, {@link #listingMoreCalls()}, {@link #bodyCalls()}, {@link #bodyCalls(String)}.
 * Thread-safe.
 */
public final class ApexLogEndpoints {
  private static final Pattern QUERY_MORE = Pattern.compile("^([0-9A-Za-z]+)-(\\d{1,9})$");
  private static final Pattern BODY =
      Pattern.compile("^tooling/sobjects/ApexLog/([0-9A-Za-z]{15,18})/Body$");
  private final String apiVersion;
  private final InstantSource clock;
  private final Map<String, Instant> visibleAt = new HashMap<>();
  private final ObjectMapper json = new ObjectMapper();
  private final Map<String, SimApexLog> logs = new LinkedHashMap<>();
  private final FaultSchedule bodyFaults;
  private final List<ListingFault> listingFaults = new ArrayList<>();
  private final Map<String, List<Map<String, Object>>> cursors = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> bodyCallsById = new ConcurrentHashMap<>();
  private final List<String> queries = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong listingCalls = new AtomicLong();
  private final AtomicLong listingMoreCalls = new AtomicLong();
  private final AtomicLong bodyCalls = new AtomicLong();
  private final AtomicLong seq = new AtomicLong();
  private final AtomicLong cursorSeq = new AtomicLong();
  private volatile int batchSize;

  private static final class Slot {
    final Fault fault;
    int remaining;

    Slot(Fault fault) {
      this.fault = fault;
      this.remaining = fault.times();
    }
  }

  private static final class ListingFault {
    long afterCalls;
    final Slot slot;

    ListingFault(long afterCalls, Fault fault) {
      this.afterCalls = afterCalls;
      this.slot = new Slot(fault);
    }
  }

  /**
   * @param apiVersion the org's API version, e.g. {@code 60.0}
   * @param batchSize records per Tooling query batch before {@code nextRecordsUrl}
   * @param clock the org's clock: a late log is listed once it reaches the log's visibility
   */
  ApexLogEndpoints(String apiVersion, int batchSize, InstantSource clock) {
    this.apiVersion = Objects.requireNonNull(apiVersion);
    this.clock = Objects.requireNonNull(clock);
    this.bodyFaults = new FaultSchedule(clock);
    batchSize(batchSize);
  }

  // ---------------------------------------------------------------- data

  /** Records per Tooling query batch (SRC-17: a result below its LIMIT may still be split). */
  public ApexLogEndpoints batchSize(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("batch size must be >= 1");
    }
    this.batchSize = size;
    return this;
  }

  /** A fresh 18-character ApexLog Id ({@code 07L...}), increasing with each call. */
  public String nextId() {
    return SalesforceIds.id18(SalesforceIds.id15("07L", seq.incrementAndGet()));
  }

  /** Adds (or replaces, by Id) a log. */
  public synchronized SimApexLog add(SimApexLog log) {
    logs.put(log.id(), log);
    return log;
  }

  /**
   * Adds a log with typical field values: {@code Request=API}, {@code Status=Success}, {@code
   * LogLength} = body size.
   *
   * @return the new log
   */
  public SimApexLog add(String username, Instant startTime, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return add(
        new SimApexLog(
            nextId(),
            userId(username),
            username,
            bytes.length,
            "/services/data/v" + apiVersion + "/sobjects/Account",
            "API",
            "Success",
            startTime,
            "Unknown",
            143,
            "Monitoring",
            bytes));
  }

  /**
   * Generates {@code count} logs with deterministic bodies (a plausible debug log of 5–40 lines):
   * StartTime {@code start + i × step} (a zero step makes one tie group), users cycling through
   * {@code usernames}.
   *
   * @return the logs in listing order
   */
  public List<SimApexLog> generate(
      int count, Instant start, Duration step, List<String> usernames, long seed) {
    if (usernames.isEmpty()) {
      throw new IllegalArgumentException("need at least one username");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<SimApexLog> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String user = usernames.get(i % usernames.size());
      Instant t = start.plus(step.multipliedBy(i));
      out.add(add(user, t, ApexLogBodies.body(rnd, userId(user), user, t, i)));
    }
    return out;
  }

  /**
   * Late-visibility generator (APX-10): {@code count} logs listed from {@code visibleAt} on
   * although their StartTime lies {@code minLag}…{@code maxLag} before it (evenly spread), bodies
   * as {@link #generate}.
   *
   * @return the logs in insertion order
   */
  public List<SimApexLog> generateLate(
      int count,
      Instant visibleAt,
      Duration minLag,
      Duration maxLag,
      List<String> usernames,
      long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<SimApexLog> out = new ArrayList<>(count);
    Duration span = maxLag.minus(minLag);
    for (int i = 0; i < count; i++) {
      String user = usernames.get(i % usernames.size());
      Duration lag = count == 1 ? minLag : minLag.plus(span.multipliedBy(i).dividedBy(count - 1));
      Instant t = visibleAt.minus(lag);
      out.add(addLate(user, t, lag, ApexLogBodies.body(rnd, userId(user), user, t, i)));
    }
    return out;
  }

  private static String userId(String username) {
    return SalesforceIds.id18(
        SalesforceIds.id15("005", Math.floorMod((long) username.hashCode(), 1L << 40)));
  }

  /**
   * Adds a log with typical field values that the Tooling queries return only from {@code startTime
   * + lag} on the org's clock (late visibility, APX-10): e.g. {@code addLate(user, now.minus(lag),
   * lag, body)} makes a log visible at once whose StartTime lies {@code lag} in the past.
   */
  public SimApexLog addLate(String username, Instant startTime, Duration lag, String body) {
    SimApexLog log = add(username, startTime, body);
    synchronized (this) {
      visibleAt.put(log.id(), startTime.plus(lag));
    }
    return log;
  }

  /** Removes a log (its body then answers 404). */
  public synchronized boolean remove(String id) {
    return logs.remove(id) != null;
  }

  /** A snapshot of every log in insertion order. */
  public synchronized List<SimApexLog> logs() {
    return List.copyOf(logs.values());
  }

  // ---------------------------------------------------------------- faults and counters

  /**
   * Queues a fault for the next body downloads of log {@code id}: {@code
   * Fault.status(500).times(2)} fails twice, then the body is served. Supported kinds: {@link
   * Fault.Kind#STATUS}, {@link Fault.Kind#SALESFORCE_ERROR}, {@link Fault.Kind#TRUNCATED_BODY},
   * {@link Fault.Kind#NON_JSON_200}, {@link Fault.Kind#MAINTENANCE_PAGE}.
   */
  public ApexLogEndpoints failBody(String id, Fault fault) {
    bodyFaults.failDownload(id, fault);
    return this;
  }

  /**
   * Faults every body call (any log) until used up, cleared or past {@link Fault#until}; a per-log
   * {@link #failBody} fault takes precedence. E.g. {@code
   * failBodies(Fault.maintenancePage().times(6))}.
   */
  public ApexLogEndpoints failBodies(Fault fault) {
    bodyFaults.add(SimEndpoint.APEXLOG_BODY, fault);
    return this;
  }

  /** Removes every queued body fault (per log and endpoint-wide). */
  public ApexLogEndpoints clearBodyFaults() {
    bodyFaults.clear();
    return this;
  }

  /**
   * Faults listing calls (first query or {@code nextRecordsUrl}) after {@code okCalls} more listing
   * calls were answered normally, e.g. {@code failListingAfter(1, salesforceError(403,
   * "REQUEST_LIMIT_EXCEEDED", ...))} throttles the second page of a drain. Kinds: {@link
   * Fault.Kind#STATUS}, {@link Fault.Kind#SALESFORCE_ERROR}, {@link Fault.Kind#NON_JSON_200}.
   */
  public synchronized ApexLogEndpoints failListingAfter(int okCalls, Fault fault) {
    listingFaults.add(new ListingFault(okCalls, fault));
    return this;
  }

  /** {@code failListingAfter(0, fault)}. */
  public ApexLogEndpoints failListing(Fault fault) {
    return failListingAfter(0, fault);
  }

  /** Initial listing queries received ({@code tooling/query?q=}). */
  public long listingCalls() {
    return listingCalls.get();
  }

  /** {@code nextRecordsUrl} calls received. */
  public long listingMoreCalls() {
    return listingMoreCalls.get();
  }

  /** Body downloads received. */
  public long bodyCalls() {
    return bodyCalls.get();
  }

  /** Body downloads received for one log. */
  public long bodyCalls(String id) {
    AtomicLong c = bodyCallsById.get(id);
    return c == null ? 0 : c.get();
  }

  /** Every SOQL text received, in order. */
  public List<String> queries() {
    synchronized (queries) {
      return List.copyOf(queries);
    }
  }

  // ---------------------------------------------------------------- routing (SimOrg)

  /** Whether {@code rest} (the path after {@code /services/data/v{api}/}) is one of ours. */
  boolean handles(String rest) {
    return rest.equals("tooling/query")
        || rest.equals("tooling/query/")
        || rest.startsWith("tooling/query/")
        || BODY.matcher(rest).matches();
  }

  /** Counts the call (before authorisation, like every {@link SimOrg} endpoint). */
  void count(String rest) {
    Matcher b = BODY.matcher(rest);
    if (b.matches()) {
      bodyCalls.incrementAndGet();
      bodyCallsById.computeIfAbsent(b.group(1), k -> new AtomicLong()).incrementAndGet();
    } else if (rest.startsWith("tooling/query/") && rest.length() > "tooling/query/".length()) {
      listingMoreCalls.incrementAndGet();
    } else {
      listingCalls.incrementAndGet();
    }
  }

  /** Serves an authorised request whose path {@link #handles} matched. */
  void handle(HttpExchange ex, String rest) throws IOException {
    if (!ex.getRequestMethod().equalsIgnoreCase("GET")) {
      sendError(ex, 405, "METHOD_NOT_ALLOWED", "HTTP Method not allowed. Allowed are GET");
      return;
    }
    Matcher b = BODY.matcher(rest);
    if (b.matches()) {
      body(ex, b.group(1));
      return;
    }
    Fault f = nextListingFault();
    if (f != null && applyFault(ex, f)) {
      return;
    }
    if (rest.startsWith("tooling/query/") && rest.length() > "tooling/query/".length()) {
      queryMore(ex, rest.substring("tooling/query/".length()));
    } else {
      query(ex);
    }
  }

  private synchronized Fault nextListingFault() {
    for (ListingFault lf : listingFaults) {
      if (lf.afterCalls > 0) {
        lf.afterCalls--;
        return null;
      }
      lf.slot.remaining--;
      Fault f = lf.slot.fault;
      if (lf.slot.remaining == 0) {
        listingFaults.remove(lf);
      }
      return f;
    }
    return null;
  }

  /**
   * @return true when the fault answered the exchange
   */
  private boolean applyFault(HttpExchange ex, Fault f) throws IOException {
    switch (f.kind()) {
      case STATUS, SALESFORCE_ERROR -> {
        sendError(ex, f.status(), f.errorCode(), f.message());
        return true;
      }
      case NON_JSON_200, MAINTENANCE_PAGE -> {
        send(ex, 200, "text/html; charset=UTF-8", f.htmlPage().getBytes(StandardCharsets.UTF_8));
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  // ---------------------------------------------------------------- listing

  /**
   * Parses an APX-1 listing (see {@link ApexLogQueries}).
   *
   * @throws SoqlRejection 400 MALFORMED_QUERY for any other text
   */
  static ApexLogQueries.Listing parse(String q) throws SoqlRejection {
    return ApexLogQueries.parse(q);
  }

  private void query(HttpExchange ex) throws IOException {
    String q = queryParam(ex.getRequestURI().getRawQuery());
    queries.add(String.valueOf(q));
    ApexLogQueries.Query parsed;
    try {
      parsed = ApexLogQueries.parseAny(q);
    } catch (SoqlRejection r) {
      sendError(ex, r.status, r.errorCode, r.getMessage());
      return;
    }
    Instant now = clock.instant();
    List<SimApexLog> matching = new ArrayList<>();
    synchronized (this) {
      for (SimApexLog log : logs.values()) {
        Instant visible = visibleAt.get(log.id());
        if ((visible == null || !visible.isAfter(now)) && matches(parsed, log)) {
          matching.add(log);
        }
      }
    }
    Comparator<SimApexLog> asc =
        Comparator.comparing((SimApexLog x) -> x.startTime()).thenComparing(SimApexLog::id);
    boolean idOnly = parsed instanceof ApexLogQueries.RevisitListing;
    matching.sort(idOnly ? asc.reversed() : asc);
    int limit =
        switch (parsed) {
          case ApexLogQueries.Listing l -> l.limit();
          case ApexLogQueries.RevisitListing r -> r.limit();
          case ApexLogQueries.ByIds b -> b.limit();
        };
    List<Map<String, Object>> records = new ArrayList<>();
    for (SimApexLog log : matching.subList(0, Math.min(matching.size(), limit))) {
      records.add(idOnly ? idRecord(log) : record(log));
    }
    sendPage(ex, records, 0, null);
  }

  private static boolean matches(ApexLogQueries.Query q, SimApexLog log) {
    Instant t = log.startTime().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    return switch (q) {
      case ApexLogQueries.Listing l ->
          (l.compound()
                  ? t.isAfter(l.from())
                      || (t.equals(l.from()) && log.id().compareTo(l.afterId()) > 0)
                  : !t.isBefore(l.from()))
              && (l.users() == null || l.users().contains(log.username()));
      case ApexLogQueries.RevisitListing r ->
          (r.fromExclusive() ? t.isAfter(r.from()) : !t.isBefore(r.from()))
              && t.isBefore(r.before())
              && (r.users() == null || r.users().contains(log.username()));
      case ApexLogQueries.ByIds b -> b.ids().contains(log.id());
    };
  }

  private Map<String, Object> idRecord(SimApexLog log) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("attributes", record(log).get("attributes"));
    r.put("Id", log.id());
    r.put("StartTime", SimOrg.SF_DATETIME.format(log.startTime()));
    return r;
  }

  private Map<String, Object> record(SimApexLog log) {
    Map<String, Object> attrs = new LinkedHashMap<>();
    attrs.put("type", "ApexLog");
    attrs.put("url", "/services/data/v" + apiVersion + "/tooling/sobjects/ApexLog/" + log.id());
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("attributes", attrs);
    r.put("Id", log.id());
    r.put("LogUserId", log.logUserId());
    r.put("LogLength", log.logLength());
    r.put("Operation", log.operation());
    r.put("Request", log.request());
    r.put("Status", log.status());
    r.put("StartTime", SimOrg.SF_DATETIME.format(log.startTime()));
    r.put("Application", log.application());
    r.put("DurationMilliseconds", log.durationMilliseconds());
    r.put("Location", log.location());
    return r;
  }

  private void queryMore(HttpExchange ex, String locatorAndOffset) throws IOException {
    Matcher m = QUERY_MORE.matcher(locatorAndOffset);
    List<Map<String, Object>> c = m.matches() ? cursors.get(m.group(1)) : null;
    int offset = m.matches() ? Integer.parseInt(m.group(2)) : -1;
    if (c == null || offset < 0 || offset > c.size()) {
      sendError(ex, 400, "INVALID_QUERY_LOCATOR", "invalid query locator");
      return;
    }
    sendPage(ex, c, offset, m.group(1));
  }

  private void sendPage(
      HttpExchange ex, List<Map<String, Object>> records, int offset, String locator)
      throws IOException {
    int end = Math.min(records.size(), offset + batchSize);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("size", records.size());
    body.put("totalSize", records.size());
    boolean done = end >= records.size();
    body.put("done", done);
    if (!done) {
      String loc = locator;
      if (loc == null) {
        loc = String.format(Locale.ROOT, "01g%012dAAB", cursorSeq.incrementAndGet());
        cursors.put(loc, records);
      }
      body.put(
          "nextRecordsUrl", "/services/data/v" + apiVersion + "/tooling/query/" + loc + "-" + end);
    } else if (locator != null) {
      cursors.remove(locator);
    }
    body.put("queryLocator", null);
    body.put("entityTypeName", "ApexLog");
    body.put("records", records.subList(offset, end));
    send(ex, 200, "application/json;charset=UTF-8", json.writeValueAsBytes(body));
  }

  // ---------------------------------------------------------------- body

  private void body(HttpExchange ex, String id) throws IOException {
    Fault f = bodyFaults.next(SimEndpoint.APEXLOG_BODY, id).orElse(null);
    SimApexLog log;
    synchronized (this) {
      log = logs.get(id);
    }
    if (f != null && applyFault(ex, f)) {
      return;
    }
    if (log == null) {
      sendError(ex, 404, "NOT_FOUND", "The requested resource does not exist");
      return;
    }
    byte[] bytes = log.body();
    if (f != null && f.kind() == Fault.Kind.TRUNCATED_BODY && bytes.length > 1) {
      ex.getResponseHeaders().set("Content-Type", "text/plain");
      ex.sendResponseHeaders(200, bytes.length);
      OutputStream os = ex.getResponseBody();
      os.write(bytes, 0, bytes.length / 2);
      os.flush();
      return; // closing with bytes missing makes the JDK server drop the connection
    }
    send(ex, 200, "text/plain;charset=UTF-8", bytes);
  }

  // ---------------------------------------------------------------- helpers

  private void sendError(HttpExchange ex, int status, String code, String message)
      throws IOException {
    Map<String, Object> err = new LinkedHashMap<>();
    err.put("message", message);
    err.put("errorCode", code);
    send(ex, status, "application/json;charset=UTF-8", json.writeValueAsBytes(List.of(err)));
  }

  private static void send(HttpExchange ex, int status, String contentType, byte[] bytes)
      throws IOException {
    ex.getResponseHeaders().set("Content-Type", contentType);
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream os = ex.getResponseBody()) {
        os.write(bytes);
      }
    }
  }

  private static String queryParam(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    return SimResponses.parseForm(rawQuery.getBytes(StandardCharsets.US_ASCII)).get("q");
  }
}
