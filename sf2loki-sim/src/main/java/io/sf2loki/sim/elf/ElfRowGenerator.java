package io.sf2loki.sim.elf;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import de.siegmar.fastcsv.writer.QuoteStrategies;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Deterministic, realistic EventLogFile rows (FEAT-17): the same builder settings give the same
 * rows, and {@link #row(long)} is a pure function of (seed, index), so a test can recompute any row
 * of a huge generated file without reading it.
 *
 * <p>Values follow the column name: 15/18-character ids (the {@code _DERIVED} column is the
 * case-safe form of its base id), IPv4 addresses (sometimes {@code Salesforce.com IP}), URIs, user
 * agents, {@code TIMESTAMP} as {@code yyyyMMddHHmmss.SSS} and {@code TIMESTAMP_DERIVED} as ISO
 * {@code yyyy-MM-ddTHH:mm:ss.SSSZ} (both UTC, {@code start + index * step}), numbers, and
 * occasional multi-line stack traces and SOQL with commas. Rows of types with ~30 columns are
 * roughly 400-1,000 bytes of CSV.
 *
 * <p>CSV is written by FastCSV with every field quoted and LF line ends, as Salesforce does.
 */
public final class ElfRowGenerator {
  private static final ElfSchemas SCHEMAS = ElfSchemas.bundled();

  private static final String[] USER_AGENTS = {
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
        + " Chrome/125.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)"
        + " Version/17.4.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0",
    "SalesforceMobileSDK/11.1.0 iOS/17.5 (iPhone) Salesforce1/248.010 Hybrid",
    "Apache-HttpClient/4.5.14 (Java/17.0.10)",
    "python-requests/2.32.3",
    "sfdx/7.209.6 (linux-x64) node-v20.12.2",
  };
  private static final String[] URIS = {
    "/services/data/v60.0/query",
    "/services/data/v60.0/sobjects/Account/describe",
    "/services/data/v60.0/composite/sobjects",
    "/lightning/r/Opportunity/006xx000001abcdAAA/view",
    "/apex/InvoiceRenderer",
    "/aura",
    "/secur/frontdoor.jsp",
    "/services/Soap/u/60.0",
    "/index.jsp",
    "/home/home.jsp",
  };
  private static final String[] API_TYPES = {"R", "E", "P", "S", "F", ""};
  private static final String[] METHODS = {"GET", "POST", "PATCH", "DELETE", "PUT"};
  private static final String[] ENTITIES = {
    "Account", "Contact", "Opportunity", "Lead", "Case", "User", "Report", "CustomObject__c"
  };
  private static final String[] CIPHERS = {
    "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_256_GCM_SHA384"
  };
  private static final String[] LOGIN_STATUS = {
    "LOGIN_NO_ERROR",
    "LOGIN_NO_ERROR",
    "LOGIN_NO_ERROR",
    "LOGIN_ERROR_INVALID_PASSWORD",
    "LOGIN_ERROR_SSO_PWD_INVALID"
  };
  private static final String[] EXCEPTIONS = {
    "System.NullPointerException",
    "System.LimitException",
    "System.DmlException",
    "System.CalloutException",
    "System.QueryException"
  };
  private static final String[] WORDS = {
    "alpha", "billing", "quote", "renewal", "pipeline", "forecast", "region", "partner",
    "invoice", "territory", "campaign", "service", "contract", "asset", "order", "ledger"
  };
  private static final String[] CLIENTS = {
    "sf2loki-test-client", "Workbench", "DataLoader", "MuleSoft Connector", "Salesforce CLI"
  };

  private final String eventType;
  private final List<ElfSchemas.Column> columns;
  private final List<String> header;
  private final long seed;
  private final String orgId15;
  private final long startMillis;
  private final long stepNanos;
  private final int users;

  private ElfRowGenerator(Builder b) {
    this.eventType = b.eventType;
    this.columns =
        b.columns != null
            ? b.columns
            : SCHEMAS
                .columns(b.eventType)
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "no column list for event type "
                                + b.eventType
                                + "; known: "
                                + SCHEMAS.eventTypes()));
    this.header = columns.stream().map(ElfSchemas.Column::name).toList();
    this.seed = b.seed;
    this.orgId15 = b.orgId.substring(0, 15);
    this.startMillis = b.start.toEpochMilli();
    this.stepNanos = b.step.toNanos();
    this.users = b.users;
  }

  /** A builder for {@code eventType} (one of {@link #knownEventTypes()} unless columns are set). */
  public static Builder builder(String eventType) {
    return new Builder(eventType);
  }

  /** Event types with a bundled column list. */
  public static List<String> knownEventTypes() {
    return SCHEMAS.eventTypes();
  }

  /** The CSV writer settings Salesforce uses: every field quoted, LF line ends. */
  public static CsvWriter.CsvWriterBuilder csvWriterBuilder() {
    return CsvWriter.builder()
        .quoteStrategy(QuoteStrategies.ALWAYS)
        .lineDelimiter(LineDelimiter.LF);
  }

  /** The EventType. */
  public String eventType() {
    return eventType;
  }

  /** The header row (column names in file order). */
  public List<String> header() {
    return header;
  }

  /** The timestamp of row {@code index}: {@code start + index * step}, truncated to millis. */
  public Instant timestamp(long index) {
    return Instant.ofEpochMilli(startMillis + Math.multiplyExact(index, stepNanos) / 1_000_000L);
  }

  /** Data row {@code index} (0-based), one value per header column; pure in (seed, index). */
  public List<String> row(long index) {
    SplittableRandom r = new SplittableRandom(mix(seed, index));
    long tsMillis = timestamp(index).toEpochMilli();
    int user = r.nextInt(users);
    String userId15 = SalesforceIds.id15("005", 1_000_000L + user);
    String requestId = requestId(r);
    String uri = URIS[r.nextInt(URIS.length)];
    String uriId15 =
        SalesforceIds.id15(uri.contains("Opportunity") ? "006" : "001", r.nextInt(100_000));
    List<String> out = new ArrayList<>(columns.size());
    for (ElfSchemas.Column c : columns) {
      out.add(value(c, r, index, tsMillis, user, userId15, requestId, uri, uriId15));
    }
    return out;
  }

  /** Rows {@code 0..count-1}, lazily. */
  public Stream<List<String>> rows(long count) {
    return LongStream.range(0, count).mapToObj(this::row);
  }

  /** Writes the header and rows {@code 0..count-1} as CSV (UTF-8) to {@code out}. */
  public void writeCsv(OutputStream out, long count) throws IOException {
    CsvWriter w = csvWriterBuilder().build(out, StandardCharsets.UTF_8);
    w.writeRecord(header);
    for (long i = 0; i < count; i++) {
      w.writeRecord(row(i));
    }
    w.flush();
  }

  /** The CSV file (header + {@code count} rows) in memory; for small files. */
  public byte[] csv(long count) {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try {
      writeCsv(bos, count);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bos.toByteArray();
  }

  private String value(
      ElfSchemas.Column c,
      SplittableRandom r,
      long index,
      long tsMillis,
      int user,
      String userId15,
      String requestId,
      String uri,
      String uriId15) {
    String n = c.name();
    String v =
        switch (n) {
          case "EVENT_TYPE" -> eventType;
          case "TIMESTAMP", "USAGE_TIMESTAMP" -> compactTimestamp(tsMillis);
          case "TIMESTAMP_DERIVED" -> isoTimestamp(tsMillis);
          case "REQUEST_ID" -> requestId;
          case "ORGANIZATION_ID" -> orgId15;
          case "USER_ID" -> userId15;
          case "USER_ID_DERIVED" -> SalesforceIds.id18(userId15);
          case "USER_NAME" -> "user" + user + "@example.com";
          case "URI" -> uri;
          case "URI_ID_DERIVED" -> SalesforceIds.id18(uriId15);
          case "USER_AGENT" ->
              "RestApi".equals(eventType)
                  ? Integer.toString(9990 + r.nextInt(10))
                  : USER_AGENTS[r.nextInt(USER_AGENTS.length)];
          default -> null;
        };
    if (v == null) {
      v = accessValue(n, r);
    }
    if (v == null) {
      v = contentValue(n, r);
    }
    return v != null ? v : typedValue(c, r, index, tsMillis);
  }

  /** Session, login, network and client-device columns; null for any other column. */
  private static String accessValue(String n, SplittableRandom r) {
    return switch (n) {
      case "BROWSER_TYPE" -> USER_AGENTS[r.nextInt(USER_AGENTS.length)];
      case "CLIENT_IP", "SOURCE_IP" -> r.nextInt(20) == 0 ? "Salesforce.com IP" : ip(r);
      case "SESSION_KEY", "LOGIN_KEY" -> token(r, 16);
      case "USER_TYPE" -> r.nextInt(10) == 0 ? "Partner" : "Standard";
      case "REQUEST_STATUS" -> r.nextInt(12) == 0 ? "F" : "S";
      case "LOGIN_STATUS" -> LOGIN_STATUS[r.nextInt(LOGIN_STATUS.length)];
      case "LOGIN_TYPE" -> r.nextBoolean() ? "Application" : "Remote Access 2.0";
      case "LOGIN_SUB_TYPE" -> r.nextBoolean() ? "" : "OAuth JWT Bearer Token Flow";
      case "API_TYPE" -> API_TYPES[r.nextInt(API_TYPES.length)];
      case "API_VERSION" -> r.nextInt(4) == 0 ? "9998.0" : "60.0";
      case "TLS_PROTOCOL" -> r.nextBoolean() ? "TLSv1.2" : "TLSv1.3";
      case "CIPHER_SUITE" -> CIPHERS[r.nextInt(CIPHERS.length)];
      case "AUTHENTICATION_METHOD_REFERENCE" -> r.nextInt(3) == 0 ? "pwd" : "";
      case "HTTP_METHOD", "METHOD", "REQUEST_METHOD" -> METHODS[r.nextInt(METHODS.length)];
      case "ORIGIN" -> "https://example.my.salesforce.com";
      case "DOMAIN", "SOURCE_HOSTNAME", "TARGET_HOSTNAME" -> "example.my.salesforce.com";
      case "URL", "PAGE_URL", "PREVPAGE_URL", "REFERRER", "REFERRER_URI" ->
          "https://example.lightning.force.com" + URIS[r.nextInt(URIS.length)];
      case "OS_NAME" -> r.nextBoolean() ? "Windows" : "Mac OSX";
      case "BROWSER_NAME" -> r.nextBoolean() ? "Chrome" : "Firefox";
      case "CONNECTION_TYPE" -> r.nextBoolean() ? "WIFI" : "4G";
      case "LATITUDE" -> Double.toString(Math.round((r.nextDouble() * 180 - 90) * 1e4) / 1e4);
      case "LONGITUDE" -> Double.toString(Math.round((r.nextDouble() * 360 - 180) * 1e4) / 1e4);
      case "CLIENT_GEO" -> "Europe/Berlin";
      case "STATUS_CODE" -> Integer.toString(r.nextInt(15) == 0 ? 500 : 200);
      case "SESSION_TYPE" -> r.nextBoolean() ? "A" : "U";
      case "SESSION_LEVEL" -> "STANDARD";
      case "PLATFORM_TYPE" -> "1015";
      case "APP_TYPE" -> "1000";
      case "RESOLUTION_TYPE" -> "9999";
      case "CLIENT_VERSION" -> "9998";
      default -> null;
    };
  }

  /** Entity, client, query, exception and message columns; null for any other column. */
  private static String contentValue(String n, SplittableRandom r) {
    return switch (n) {
      case "ENTITY_NAME",
          "ENTITY_TYPE",
          "OBJECT_TYPE",
          "PAGE_ENTITY_TYPE",
          "PREVPAGE_ENTITY_TYPE" ->
          ENTITIES[r.nextInt(ENTITIES.length)];
      case "CLIENT_NAME", "CLIENT_ID", "APP_NAME", "SDK_APP_NAME" ->
          CLIENTS[r.nextInt(CLIENTS.length)];
      case "QUERY" ->
          "SELECT Id, Name, OwnerId FROM "
              + ENTITIES[r.nextInt(ENTITIES.length)]
              + " WHERE LastModifiedDate > LAST_N_DAYS:"
              + (1 + r.nextInt(30))
              + " LIMIT "
              + (100 + r.nextInt(900));
      case "EXCEPTION_TYPE" -> EXCEPTIONS[r.nextInt(EXCEPTIONS.length)];
      case "EXCEPTION_MESSAGE" -> "Attempt to de-reference a null object at " + words(r, 3);
      case "EXCEPTION_CATEGORY" -> r.nextBoolean() ? "APEX_CODE" : "LIMIT";
      case "STACK_TRACE" ->
          "Class."
              + cap(WORDS[r.nextInt(WORDS.length)])
              + "Service.run: line "
              + (1 + r.nextInt(400))
              + ", column 1\nTrigger."
              + cap(ENTITIES[r.nextInt(4)])
              + "Trigger: line "
              + (1 + r.nextInt(50))
              + ", column 1";
      case "MESSAGE" -> r.nextInt(8) == 0 ? "\"success\"" : "Processed " + words(r, 4);
      default -> null;
    };
  }

  /** A column without a name-specific generator: by its schema type. */
  private static String typedValue(
      ElfSchemas.Column c, SplittableRandom r, long index, long tsMillis) {
    String n = c.name();
    if (n.endsWith("_DERIVED") && "Id".equals(c.type())) {
      return SalesforceIds.id18(SalesforceIds.id15("00O", r.nextInt(1_000_000)));
    }
    return switch (c.type()) {
      case "Id" -> SalesforceIds.id15(prefixFor(n), r.nextInt(1_000_000));
      case "Number" ->
          n.contains("TIME") && !n.contains("DB_TOTAL")
              ? Integer.toString(r.nextInt(5000))
              : n.contains("DB_TOTAL")
                  ? Long.toString(1_000_000L + r.nextLong(500_000_000L))
                  : Integer.toString(r.nextInt(10_000));
      case "Boolean" -> r.nextBoolean() ? "1" : "0";
      case "IP" -> ip(r);
      case "DateTime" -> isoTimestamp(tsMillis);
      case "Text", "EscapedString" -> words(r, 6);
      default -> index % 7 == 0 ? "" : words(r, 2).replace(' ', '_');
    };
  }

  private static String prefixFor(String column) {
    if (column.startsWith("REPORT")) {
      return "00O";
    } else if (column.startsWith("DASHBOARD")) {
      return "01Z";
    } else if (column.startsWith("JOB")) {
      return "707";
    } else if (column.startsWith("BATCH")) {
      return "751";
    }
    return "001";
  }

  private static String words(SplittableRandom r, int count) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(WORDS[r.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static String ip(SplittableRandom r) {
    return switch (r.nextInt(3)) {
      case 0 -> "192.0.2." + (1 + r.nextInt(254));
      case 1 -> "198.51.100." + (1 + r.nextInt(254));
      default -> "203.0.113." + (1 + r.nextInt(254));
    };
  }

  private static final String TOKEN_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  private static String token(SplittableRandom r, int len) {
    char[] c = new char[len];
    for (int i = 0; i < len; i++) {
      c[i] = TOKEN_CHARS.charAt(r.nextInt(TOKEN_CHARS.length()));
    }
    return new String(c);
  }

  private static String requestId(SplittableRandom r) {
    char[] c = new char[22];
    for (int i = 0; i < 21; i++) {
      c[i] = TOKEN_CHARS.charAt(r.nextInt(62));
    }
    c[21] = '-';
    return new String(c);
  }

  static String compactTimestamp(long millis) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), 0, ZoneOffset.UTC);
    StringBuilder sb = new StringBuilder(18);
    pad(sb, t.getYear(), 4);
    pad(sb, t.getMonthValue(), 2);
    pad(sb, t.getDayOfMonth(), 2);
    pad(sb, t.getHour(), 2);
    pad(sb, t.getMinute(), 2);
    pad(sb, t.getSecond(), 2);
    sb.append('.');
    pad(sb, (int) Math.floorMod(millis, 1000), 3);
    return sb.toString();
  }

  static String isoTimestamp(long millis) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), 0, ZoneOffset.UTC);
    StringBuilder sb = new StringBuilder(24);
    pad(sb, t.getYear(), 4);
    sb.append('-');
    pad(sb, t.getMonthValue(), 2);
    sb.append('-');
    pad(sb, t.getDayOfMonth(), 2);
    sb.append('T');
    pad(sb, t.getHour(), 2);
    sb.append(':');
    pad(sb, t.getMinute(), 2);
    sb.append(':');
    pad(sb, t.getSecond(), 2);
    sb.append('.');
    pad(sb, (int) Math.floorMod(millis, 1000), 3);
    return sb.append('Z').toString();
  }

  private static void pad(StringBuilder sb, int v, int width) {
    String s = Integer.toString(v);
    for (int i = s.length(); i < width; i++) {
      sb.append('0');
    }
    sb.append(s);
  }

  private static long mix(long seed, long index) {
    long z = seed * 0x9E3779B97F4A7C15L + index;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Configures an {@link ElfRowGenerator}. */
  public static final class Builder {
    private final String eventType;
    private List<ElfSchemas.Column> columns;
    private long seed = 1;
    private String orgId = "00Dxx0000000001EAA";
    private Instant start = Instant.parse("2024-06-05T00:00:00Z");
    private Duration step = Duration.ofMillis(250);
    private int users = 50;

    private Builder(String eventType) {
      this.eventType = Objects.requireNonNull(eventType);
    }

    /** Random seed (default 1). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Org id (15 or 18 characters; the 15-character form is written). */
    public Builder organizationId(String orgId) {
      if (orgId.length() < 15) {
        throw new IllegalArgumentException("org id too short");
      }
      this.orgId = orgId;
      return this;
    }

    /** Timestamp of row 0 (default 2024-06-05T00:00:00Z). */
    public Builder start(Instant start) {
      this.start = Objects.requireNonNull(start);
      return this;
    }

    /** Time between consecutive rows (default 250 ms; must be positive). */
    public Builder step(Duration step) {
      if (step.isNegative() || step.isZero()) {
        throw new IllegalArgumentException("step must be positive");
      }
      this.step = step;
      return this;
    }

    /** Number of distinct simulated users (default 50). */
    public Builder users(int users) {
      this.users = Math.max(1, users);
      return this;
    }

    /** Overrides the column list (names and EventLogFile types), e.g. for unknown types. */
    public Builder columns(List<ElfSchemas.Column> columns) {
      this.columns = List.copyOf(columns);
      return this;
    }

    /**
     * Builds the generator.
     *
     * @throws IllegalArgumentException when the type has no bundled column list and none was set
     */
    public ElfRowGenerator build() {
      return new ElfRowGenerator(this);
    }
  }
}
