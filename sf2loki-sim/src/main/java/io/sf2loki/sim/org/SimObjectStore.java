package io.sf2loki.sim.org;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queryable objects of a simulated org (SPEC §5 OBJ, FEAT-18): standard objects such as {@code
 * LoginHistory} (ascending queries, real Ids) and Big Objects such as {@code LoginEvent} (index
 * fields {@code EventDate}, {@code EventIdentifier}; DESC only; every row carries the placeholder
 * Id {@code 000000000000000AAA}). Generators cover tie groups, late-visible rows and rows whose
 * timestamp the client cannot parse. Rows become queryable at their {@code visibleAt} on the org's
 * clock.
 *
 * <p>Thread-safe. Queries are evaluated by {@link #query(String)} (also served over HTTP by {@link
 * SimOrg} for every {@code FROM} other than {@code EventLogFile}).
 */
public final class SimObjectStore {
  /** The Id Salesforce returns for every Big Object row (OBJ-5). */
  public static final String PLACEHOLDER_ID = "000000000000000AAA";

  /** Default index fields of a Big Object (FEAT-18). */
  public static final Set<String> DEFAULT_INDEX_FIELDS = Set.of("EventDate", "EventIdentifier");

  private final InstantSource clock;
  private final String apiVersion;
  private final Map<String, Obj> objects = new ConcurrentHashMap<>();
  private final AtomicLong seq = new AtomicLong();

  private static final class Obj {
    final String name;
    final String timestampField;
    final boolean big;
    final Set<String> indexFields;
    final List<SimObjectRecord> rows = new ArrayList<>();
    List<SimObjectRecord> sorted;
    final AtomicLong queries = new AtomicLong();
    final List<String> queryLog = new ArrayList<>();

    Obj(String name, String timestampField, boolean big, Set<String> indexFields) {
      this.name = name;
      this.timestampField = timestampField;
      this.big = big;
      this.indexFields = indexFields;
    }
  }

  /**
   * @param clock the org's clock; rows become visible when it reaches their {@code visibleAt}
   * @param apiVersion used in {@code attributes.url}
   */
  public SimObjectStore(InstantSource clock, String apiVersion) {
    this.clock = Objects.requireNonNull(clock);
    this.apiVersion = Objects.requireNonNull(apiVersion);
  }

  /** Defines a standard (ascending-queryable) object with real Ids. Idempotent. */
  public void defineObject(String name, String timestampField) {
    objects.putIfAbsent(
        key(name), new Obj(name, Objects.requireNonNull(timestampField), false, Set.of()));
  }

  /**
   * Defines a Big Object: queries must obey {@link BigObjectRules} for {@code indexFields}; rows
   * carry {@link #PLACEHOLDER_ID}. Idempotent.
   */
  public void defineBigObject(String name, String timestampField, Set<String> indexFields) {
    objects.putIfAbsent(key(name), new Obj(name, timestampField, true, Set.copyOf(indexFields)));
  }

  /** {@code LoginEvent}-style Big Object on {@code EventDate}/{@code EventIdentifier}. */
  public void defineBigObject(String name) {
    defineBigObject(name, "EventDate", DEFAULT_INDEX_FIELDS);
  }

  /**
   * Adds a row visible at once. {@code Id} and (for Big Objects or when absent) {@code
   * EventIdentifier} are generated unless present in {@code fields}.
   */
  public SimObjectRecord add(String object, Instant timestamp, Map<String, Object> fields) {
    return add(object, timestamp, Duration.ZERO, fields);
  }

  /**
   * Adds a row that becomes queryable {@code lag} after {@code timestamp} (late visibility, OBJ-6).
   */
  public SimObjectRecord add(
      String object, Instant timestamp, Duration lag, Map<String, Object> fields) {
    return insert(object, timestamp, timestamp.plus(lag), fields, null, false);
  }

  /**
   * Adds a row that filters and sorts at {@code timestamp} but whose timestamp field is sent as
   * {@code rendered} (null or an unparseable string): the client must ship it with its fallback and
   * not move its watermark (SRC-12, OBJ-9).
   */
  public SimObjectRecord addUnparseableTimestamp(
      String object, Instant timestamp, Object rendered) {
    return insert(object, timestamp, timestamp, Map.of(), rendered, true);
  }

  /** Adds {@code n} rows sharing one timestamp (a tie group, OBJ-3, OBJ-7). */
  public List<SimObjectRecord> addTieGroup(String object, Instant timestamp, int n) {
    List<SimObjectRecord> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(add(object, timestamp, Map.of()));
    }
    return out;
  }

  /** Adds {@code n} rows at {@code start}, {@code start + step}, ... */
  public List<SimObjectRecord> addSeries(String object, Instant start, Duration step, int n) {
    List<SimObjectRecord> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(add(object, start.plus(step.multipliedBy(i)), Map.of()));
    }
    return out;
  }

  /** Every row of {@code object} in insertion order (visible or not). */
  public List<SimObjectRecord> records(String object) {
    Obj o = require(object);
    synchronized (o) {
      return List.copyOf(o.rows);
    }
  }

  /** Queries answered for {@code object} (including rejected ones). */
  public long queryCount(String object) {
    return require(object).queries.get();
  }

  /** Every query text answered for {@code object} (including rejected ones), in order. */
  public List<String> queries(String object) {
    Obj o = require(object);
    synchronized (o) {
      return List.copyOf(o.queryLog);
    }
  }

  /**
   * Late-visibility generator (OBJ-13): {@code n} rows that become queryable at {@code visibleAt}
   * although their timestamps lie {@code minLag}…{@code maxLag} before it (evenly spread; row
   * {@code i} lags {@code minLag + (maxLag − minLag) · i / (n − 1)}). With {@code visibleAt} = the
   * org's now they are inserted "at run time" with timestamps in the past.
   */
  public List<SimObjectRecord> addLate(
      String object, Instant visibleAt, Duration minLag, Duration maxLag, int n) {
    List<SimObjectRecord> out = new ArrayList<>(n);
    Duration span = maxLag.minus(minLag);
    for (int i = 0; i < n; i++) {
      Duration lag = n == 1 ? minLag : minLag.plus(span.multipliedBy(i).dividedBy(n - 1));
      out.add(add(object, visibleAt.minus(lag), lag, Map.of()));
    }
    return out;
  }

  /** Whether {@code name} is a defined object. */
  public boolean has(String name) {
    return name != null && objects.containsKey(key(name));
  }

  /** A query the org refused, for in-process callers of {@link #queryDirect}. */
  public static final class Rejected extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String errorCode;

    Rejected(SoqlRejection r) {
      super(r.getMessage(), null, false, false);
      this.status = r.status;
      this.errorCode = r.errorCode;
    }

    /** HTTP status the org answers with (400). */
    public int status() {
      return status;
    }

    /** Salesforce {@code errorCode}, e.g. {@code BIG_OBJECT_UNSUPPORTED_OPERATION}. */
    public String errorCode() {
      return errorCode;
    }
  }

  /**
   * {@link #query(String)} without HTTP, for fast in-process tests (same rules, same records).
   *
   * @throws Rejected what the HTTP endpoint would answer as a Salesforce error
   */
  public List<Map<String, Object>> queryDirect(String soql) throws Rejected {
    try {
      return query(soql);
    } catch (SoqlRejection r) {
      throw new Rejected(r);
    }
  }

  /**
   * Evaluates one query (SPEC SRC-17 shapes) and returns the REST records, each with {@code
   * attributes}.
   *
   * @throws SoqlRejection 400 {@code MALFORMED_QUERY}, {@code INVALID_TYPE} for an unknown object,
   *     or {@code BIG_OBJECT_UNSUPPORTED_OPERATION} for a Big Object rule violation
   */
  List<Map<String, Object>> query(String soql) throws SoqlRejection {
    String fromName = ObjectQuery.fromObject(soql);
    Obj o = fromName == null ? null : objects.get(key(fromName));
    if (o != null) {
      o.queries.incrementAndGet();
      synchronized (o) {
        o.queryLog.add(soql);
      }
    }
    ObjectQuery q = ObjectQuery.parse(soql);
    if (o == null) {
      throw new SoqlRejection(
          400, "INVALID_TYPE", "sObject type '" + q.from() + "' is not supported.");
    }
    if (o.big) {
      BigObjectRules.check(q, o.indexFields);
    }
    List<SimObjectRecord> rows;
    synchronized (o) {
      if (o.sorted == null) {
        o.sorted = new ArrayList<>(o.rows);
        o.sorted.sort(Comparator.comparing(SimObjectRecord::timestamp));
      }
      rows = o.sorted;
    }
    rows = narrow(rows, q.where(), o.timestampField);
    Instant now = clock.instant();
    Comparator<Map<String, Object>> order = ObjectQuery.comparator(q.orderBy());
    Comparator<SimObjectRecord> byOrder = (a, b) -> order.compare(a.values(), b.values());
    List<SimObjectRecord> matched = new ArrayList<>();
    boolean byTs =
        !q.orderBy().isEmpty() && q.orderBy().getFirst().field().equalsIgnoreCase(o.timestampField);
    if (byTs && q.limit() >= 0) {
      // walk the timestamp-sorted range in query order; stop after the limit's tie group
      boolean desc = q.orderBy().getFirst().descending();
      int n = rows.size();
      for (int k = 0; k < n; k++) {
        SimObjectRecord r = rows.get(desc ? n - 1 - k : k);
        if (matched.size() >= q.limit()
            && (matched.isEmpty()
                || !r.timestamp().equals(matched.get(matched.size() - 1).timestamp()))) {
          break;
        }
        if (!r.visibleAt().isAfter(now) && ObjectQuery.matches(q.where(), r.values())) {
          matched.add(r);
        }
      }
    } else {
      for (SimObjectRecord r : rows) {
        if (!r.visibleAt().isAfter(now) && ObjectQuery.matches(q.where(), r.values())) {
          matched.add(r);
        }
      }
    }
    matched.sort(byOrder);
    if (q.limit() >= 0 && matched.size() > q.limit()) {
      matched = matched.subList(0, q.limit());
    }
    List<Map<String, Object>> out = new ArrayList<>(matched.size());
    for (SimObjectRecord r : matched) {
      out.add(render(o, r, q));
    }
    return out;
  }

  private Map<String, Object> render(Obj o, SimObjectRecord r, ObjectQuery q) {
    Map<String, Object> rec = new LinkedHashMap<>();
    Map<String, Object> attrs = new LinkedHashMap<>();
    attrs.put("type", o.name);
    attrs.put("url", "/services/data/v" + apiVersion + "/sobjects/" + o.name + "/" + r.id());
    rec.put("attributes", attrs);
    Iterable<String> fields = q.fieldsAll() ? r.values().keySet() : q.fields();
    for (String f : fields) {
      Object v;
      if (r.hasRenderedOverride() && f.equalsIgnoreCase(o.timestampField)) {
        v = r.renderedTimestamp();
      } else {
        v = ObjectQuery.get(r.values(), f);
      }
      rec.put(f, v instanceof Instant i ? SimOrg.SF_DATETIME.format(i) : v);
    }
    return rec;
  }

  private SimObjectRecord insert(
      String object,
      Instant timestamp,
      Instant visibleAt,
      Map<String, Object> fields,
      Object rendered,
      boolean override) {
    // Salesforce stores milliseconds: filtering must see the same instant the JSON shows
    timestamp = timestamp.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    Obj o = require(object);
    long n = seq.incrementAndGet();
    Map<String, Object> values = new LinkedHashMap<>();
    String id =
        o.big
            ? PLACEHOLDER_ID
            : String.format(Locale.ROOT, "0Ya%09d%03dAAA", n, n % 1000).substring(0, 18);
    values.put("Id", fields.getOrDefault("Id", id));
    values.put(o.timestampField, timestamp);
    if (o.big || !fields.containsKey("EventIdentifier")) {
      values.put(
          "EventIdentifier",
          fields.getOrDefault(
              "EventIdentifier",
              UUID.nameUUIDFromBytes((o.name + ":" + n).getBytes(StandardCharsets.UTF_8))
                  .toString()));
    }
    values.putIfAbsent("UserId", "005xx0000000001AAA");
    values.putIfAbsent("SourceIp", "10.0." + (n / 250 % 250) + "." + (n % 250));
    values.putIfAbsent("Status", n % 10 == 0 ? "Failed" : "Success");
    for (var e : fields.entrySet()) {
      values.putIfAbsent(e.getKey(), e.getValue());
    }
    SimObjectRecord r =
        new SimObjectRecord(
            o.name, (String) values.get("Id"), timestamp, visibleAt, values, rendered, override);
    synchronized (o) {
      o.rows.add(r);
      o.sorted = null;
    }
    return r;
  }

  /**
   * The sub-range of timestamp-sorted {@code rows} allowed by the top-level AND conjuncts on the
   * timestamp field (an index, as a real org has one on it).
   */
  private static List<SimObjectRecord> narrow(
      List<SimObjectRecord> rows, ObjectQuery.Expr where, String tsField) {
    List<ObjectQuery.Expr> conj =
        where instanceof ObjectQuery.And a ? a.parts() : where == null ? List.of() : List.of(where);
    int lo = 0;
    int hi = rows.size();
    for (ObjectQuery.Expr e : conj) {
      if (!(e instanceof ObjectQuery.Compare c)
          || !c.field().equalsIgnoreCase(tsField)
          || !(c.value() instanceof Instant at)) {
        continue;
      }
      switch (c.op()) {
        case ">=" -> lo = Math.max(lo, firstIndex(rows, at, false));
        case ">" -> lo = Math.max(lo, firstIndex(rows, at, true));
        case "<=" -> hi = Math.min(hi, firstIndex(rows, at, true));
        case "<" -> hi = Math.min(hi, firstIndex(rows, at, false));
        case "=" -> {
          lo = Math.max(lo, firstIndex(rows, at, false));
          hi = Math.min(hi, firstIndex(rows, at, true));
        }
        default -> {}
      }
    }
    return lo >= hi ? List.of() : rows.subList(lo, hi);
  }

  /** First index whose timestamp is ≥ {@code at} (or {@code > at} when {@code after}). */
  private static int firstIndex(List<SimObjectRecord> rows, Instant at, boolean after) {
    int l = 0;
    int r = rows.size();
    while (l < r) {
      int m = (l + r) >>> 1;
      int c = rows.get(m).timestamp().compareTo(at);
      if (c < 0 || (after && c == 0)) {
        l = m + 1;
      } else {
        r = m;
      }
    }
    return l;
  }

  private Obj require(String name) {
    Obj o = objects.get(key(name));
    if (o == null) {
      throw new IllegalArgumentException("unknown object " + name);
    }
    return o;
  }

  private static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /** For diagnostics: the defined object names. */
  public Set<String> objectNames() {
    Set<String> out = new LinkedHashSet<>();
    objects.values().forEach(o -> out.add(o.name));
    return out;
  }
}
