package io.sf2loki.sim.org;

import com.sun.net.httpserver.HttpHandler;
import io.sf2loki.sim.elf.ElfRowGenerator;
import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.sim.http.LoopbackServer;
import java.io.IOException;
import java.net.URI;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process simulated Salesforce org (FEAT-17, FEAT-18) on a JDK {@link HttpServer} bound to
 * {@code 127.0.0.1} on an ephemeral port. Plain HTTP; {@link #instanceUrl()} is both the login URL
 * and the {@code instance_url} it hands out.
 *
 * <p>Endpoints:
 *
 * <ul>
 *   <li>{@code POST /services/oauth2/token}: JWT bearer (AUTH-3; RS256 verified against the
 *       configured key, {@code iss} = client id, {@code exp} in the future, {@code aud} one of the
 *       accepted audiences) and client credentials (AUTH-4). Errors are 400 {@code
 *       {"error":..,"error_description":..}}. Success returns an opaque {@code access_token},
 *       {@code instance_url}, {@code id}, {@code token_type}, {@code issued_at}, {@code signature},
 *       {@code scope}.
 *   <li>{@code GET /services/oauth2/userinfo} (AUTH-8): {@code organization_id}, {@code user_id},
 *       ...
 *   <li>{@code GET /services/data/v{api}/query?q=}: the EventLogFile shapes of {@link
 *       EventLogFileQuery} (ELF-2, ELF-5), results in batches of {@link Builder#queryBatchSize}
 *       with {@code done:false} and {@code nextRecordsUrl} {@code
 *       /services/data/v{api}/query/<locator>-<offset>} (SRC-17), served by {@code GET} on that
 *       path.
 *   <li>{@code GET /services/data/v{api}/sobjects/EventLogFile/<Id>/LogFile} (ELF-8): {@code
 *       application/octetstream} (as Salesforce documents it), gzip-encoded when the request sends
 *       {@code Accept-Encoding: gzip} (ELF-16), streamed from the file's {@link LogFileBody}.
 *   <li>{@code GET /services/data/v{api}/sobjects/} (describe global, used by PS-20 topic
 *       discovery): {@code {"encoding":"UTF-8","maxBatchSize":200,"sobjects":[{"name":..,
 *       "label":..,"keyPrefix":..,"queryable":..,"urls":{..}},..]}} listing {@link
 *       Builder#sobjects(List)} (default {@link #DEFAULT_SOBJECTS}).
 * </ul>
 *
 * Every data call needs {@code Authorization: Bearer <token>} (401 {@code INVALID_SESSION_ID}
 * otherwise). Every response carries {@code Sforce-Limit-Info: api-usage=<n>/<max>}; the JDK server
 * always writes its own {@code Date} header from the system clock, so the injected clock drives
 * token times, JWT expiry and token TTL but not that header.
 *
 * <p>Parts: {@link OrgRouter} (routing, counters, faults, bearer check, downloads), {@link
 * SimTokens}, {@link LogFileStore}, {@link IdentityEndpoints}, {@link QueryEndpoint}, {@link
 * OpsEndpoints}, {@link ApexLogEndpoints} and {@link SimObjectStore}.
 *
 * <p>Thread-safe. {@link #close()} stops the server and its handler threads.
 */
public final class SimOrg implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SimOrg.class);
  static final DateTimeFormatter SF_DATETIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /**
   * The sObjects of the describe global by default: a few ordinary objects and the Real-Time Event
   * Monitoring objects the simulated Pub/Sub API serves ({@code LoginEventStream}, {@code
   * ApiEventStream}; {@code ApiAnomalyEvent} is listed too but, not ending in {@code EventStream},
   * is not discovered by PS-20).
   */
  public static final List<String> DEFAULT_SOBJECTS =
      List.of(
          "Account",
          "ApiAnomalyEvent",
          "ApiEventStream",
          "Contact",
          "EventLogFile",
          "LoginEventStream");

  private final String orgId;
  private final String apiVersion;

  private final LoopbackServer server;
  private final CountDownLatch closed = new CountDownLatch(1);
  private final String baseUrl;

  private final FaultSchedule faults;
  private final AtomicLong apiUsage = new AtomicLong();
  private final SimTokens tokens;
  private final LogFileStore files;
  private final OpsEndpoints ops;
  private final OrgRouter router;
  // eventlog_objects (OBJ, FEAT-18): queryable objects and Big Objects
  private final SimObjectStore objectStore;
  private final ApexLogEndpoints apexLogs; // ApexLog Tooling endpoints (APX)

  private SimOrg(Builder b) throws IOException {
    this.orgId = b.orgId;
    this.apiVersion = b.apiVersion;
    this.faults = new FaultSchedule(b.clock);
    this.tokens = new SimTokens(b.orgId, b.clock, b.tokenTtl);
    this.files = new LogFileStore(b.orgId);
    this.objectStore = new SimObjectStore(b.clock, b.apiVersion);
    JwtAssertionVerifier jwt =
        b.jwtKey == null
            ? null
            : new JwtAssertionVerifier(b.jwtKey, b.clientId, b.audiences, b.jwtSubject, b.clock);
    this.apexLogs = new ApexLogEndpoints(b.apiVersion, b.queryBatchSize, b.clock);
    this.ops = new OpsEndpoints(apiUsage::get, b.apiMax); // doctor (DOC-2)
    SimResponses respond = new SimResponses(ops::limitInfo);
    IdentityEndpoints identity =
        new IdentityEndpoints(
            new IdentityEndpoints.Identity(b.orgId, b.userId, b.username, b.apiVersion),
            new IdentityEndpoints.Client(jwt, b.clientId, b.clientSecret),
            b.sobjects,
            b.clock,
            this::instanceUrl,
            tokens::issue,
            respond);
    QueryEndpoint queries =
        new QueryEndpoint(
            b.apiVersion,
            b.queryBatchSize,
            b.hourlyAvailable,
            b.errorEcho,
            b.secondError,
            new ObjectQueryEndpoint(objectStore),
            files::matching,
            respond);
    this.router =
        new OrgRouter(
            b.apiVersion,
            new OrgRouter.Endpoints(identity, queries, ops, apexLogs, respond),
            faults,
            b.maxFaultDelay,
            closed,
            apiUsage,
            tokens,
            files);
    this.server =
        new LoopbackServer(
            b.port, b.handlerThreads, "sim-org-", Map.of("/", (HttpHandler) router::handle));
    this.baseUrl = "http://127.0.0.1:" + server.port();
    log.atInfo().addKeyValue("url", baseUrl).addKeyValue("org_id", orgId).log("sim org started");
  }

  /** A builder with defaults: org {@code 00Dxx0000000001EAA}, API 60.0, batch size 2000. */
  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- public API

  /** Base URL, e.g. {@code http://127.0.0.1:41234} (login URL and {@code instance_url}). */
  public String instanceUrl() {
    return baseUrl;
  }

  /** Same as {@link #instanceUrl()} as a URI. */
  public URI baseUri() {
    return URI.create(baseUrl);
  }

  /** {@code <instanceUrl>/services/oauth2/token}. */
  public String tokenUrl() {
    return baseUrl + "/services/oauth2/token";
  }

  /** The bound port. */
  public int port() {
    return server.port();
  }

  /** The 18-character org id returned by userinfo. */
  public String orgId() {
    return orgId;
  }

  /** The API version served, e.g. {@code 60.0}. */
  public String apiVersion() {
    return apiVersion;
  }

  /** ApexLog records, bodies, their faults and call counters (APX-1, APX-5). */
  public ApexLogEndpoints apexLogs() {
    return apexLogs;
  }

  /** The fault schedule; mutate it at any time. */
  public FaultSchedule faults() {
    return faults;
  }

  /** Requests received by {@code endpoint} so far (including faulted and unauthorised ones). */
  public long callCount(SimEndpoint endpoint) {
    return endpoint == SimEndpoint.APEXLOG_BODY ? apexLogs.bodyCalls() : router.callCount(endpoint);
  }

  /**
   * {@link #callCount(SimEndpoint)} by short name: token, userinfo, query, queryMore, logfile,
   * sobjects.
   */
  public long callCount(String endpoint) {
    return callCount(SimEndpoint.of(endpoint));
  }

  /** The {@code api-usage} counter reported in {@code Sforce-Limit-Info} (data calls). */
  public long apiUsage() {
    return apiUsage.get();
  }

  /**
   * Invalidates every issued access token: the next data call answers 401 (AUTH-6, AUTH-7), and
   * every {@link #onTokensRevoked(Runnable) revocation listener} runs (e.g. the simulated Pub/Sub
   * server ends the streams opened with such a token).
   */
  public void expireAllTokens() {
    tokens.expireAll();
  }

  /**
   * Invalidates one access token (unknown tokens are ignored) and runs the revocation listeners.
   */
  public void expireToken(String token) {
    tokens.expire(token);
  }

  /**
   * True when {@code token} was issued by this org, not expired by {@link #expireAllTokens()} /
   * {@link #expireToken(String)}, and younger than the {@link Builder#tokenTtl(Duration) TTL} per
   * the injected clock. Used by every data endpoint and by the simulated Pub/Sub API.
   */
  public boolean isTokenValid(String token) {
    return tokens.isValid(token);
  }

  /**
   * Registers {@code listener} to run (on the revoking thread) after every explicit revocation
   * ({@link #expireAllTokens()}, {@link #expireToken(String)}). TTL expiry is clock-driven and
   * fires no listener: callers re-check with {@link #isTokenValid(String)}.
   */
  public void onTokensRevoked(Runnable listener) {
    tokens.onRevoked(listener);
  }

  /** Issues a valid access token without the OAuth flow (for tests of data calls). */
  public String issueToken() {
    return tokens.issue();
  }

  /**
   * Adds an EventLogFile with the given CSV body. {@code Sequence} is 0 for Daily files and 1, 2,
   * ... for Hourly files of the same type and LogDate.
   *
   * @return the new 18-character Id
   */
  public String addLogFile(
      String eventType, String interval, Instant logDate, Instant createdDate, byte[] csv) {
    return addLogFile(eventType, interval, logDate, createdDate, LogFileBody.of(csv.clone()));
  }

  /** As {@link #addLogFile(String, String, Instant, Instant, byte[])} with any body. */
  public String addLogFile(
      String eventType, String interval, Instant logDate, Instant createdDate, LogFileBody body) {
    return files.add(eventType, interval, logDate, createdDate, body);
  }

  /**
   * Adds an EventLogFile whose body is generated on the fly by {@link ElfRowGenerator} (never held
   * in memory): {@code rows} data rows of {@code eventType}, timestamps spread over the interval
   * starting at {@code logDate}.
   *
   * @return the body; {@link GeneratedLogFile#generator()} recomputes every row for assertions
   */
  public GeneratedLogFile addGeneratedLogFile(
      String eventType,
      String interval,
      Instant logDate,
      Instant createdDate,
      long rows,
      long seed) {
    return files.addGenerated(eventType, interval, logDate, createdDate, rows, seed);
  }

  /**
   * Replaces a file's body and CreatedDate, keeping its Id (Salesforce regenerating a Daily file,
   * ELF-6).
   *
   * @throws IllegalArgumentException for an unknown id
   */
  public void regenerateLogFile(String id, Instant createdDate, byte[] csv) {
    files.regenerate(id, createdDate, csv);
  }

  /** Removes a file (the download then answers 404). */
  public boolean removeLogFile(String id) {
    return files.remove(id);
  }

  /** A snapshot of every file, in insertion order. */
  public List<SimLogFile> logFiles() {
    return files.all();
  }

  /** The file with this id. */
  public Optional<SimLogFile> logFile(String id) {
    return files.get(id);
  }

  /** Adds an Apex TraceFlag expiring at {@code expiration} (doctor's traceflags row, DOC-2). */
  public void addTraceFlag(String id, Instant expiration) {
    ops.addTraceFlag(id, expiration);
  }

  /**
   * Fixes {@code DailyApiRequests} of {@code /limits} (and {@code Sforce-Limit-Info}) at runtime,
   * e.g. under an API reserve (OBS-21); {@link #clearDailyApiRequests()} returns to the counter.
   */
  public void setDailyApiRequests(long remaining, long max) {
    ops.dailyApiRequests(new OpsEndpoints.Daily(remaining, max));
  }

  /** Authorised {@code /limits} requests answered so far (OBS-12). */
  public long limitsCalls() {
    return ops.limitsCalls();
  }

  /** {@code DailyApiRequests} from the API usage counter again (the default). */
  public void clearDailyApiRequests() {
    ops.dailyApiRequests(null);
  }

  /** Makes {@code EventLogFile/describe} answer 403 (a user without View Event Log Files). */
  public void denyEventLogFile(boolean deny) {
    ops.denyEventLogFile(deny);
  }

  /** The queryable objects and Big Objects (OBJ, FEAT-18) served by {@code /query}. */
  public SimObjectStore objects() {
    return objectStore;
  }

  /** Stops the server (in-flight exchanges are cut) and the handler threads. Idempotent. */
  @Override
  public void close() {
    if (closed.getCount() == 0) {
      return;
    }
    closed.countDown();
    server.close();
  }

  // ---------------------------------------------------------------- builder

  /** Configures a {@link SimOrg}. Every setting has a default; {@link #start()} binds the port. */
  public static final class Builder {
    private String orgId = "00Dxx0000000001EAA";
    private String userId = "005xx0000000001AAA";
    private String username = "integration@example.com";
    private String jwtSubject;
    private String apiVersion = "60.0";
    private RSAPublicKey jwtKey;
    private String clientId = "sim-client-id";
    private String clientSecret = "sim-client-secret";
    private Set<String> audiences =
        Set.of("https://login.salesforce.com", "https://test.salesforce.com");
    private int queryBatchSize = 2000;
    private InstantSource clock = InstantSource.system();
    private Duration tokenTtl;
    private Duration maxFaultDelay = Duration.ofSeconds(30);
    private long apiMax = 15000;
    private boolean hourlyAvailable = true;
    private SoqlErrorEcho errorEcho = SoqlErrorEcho.WINDOW;
    private Map<String, Object> secondError;
    private int handlerThreads = 16;
    private int port;
    private List<String> sobjects = DEFAULT_SOBJECTS;

    private Builder() {}

    /** 18-character org id (default {@code 00Dxx0000000001EAA}). */
    public Builder orgId(String orgId) {
      if (orgId.length() != 18) {
        throw new IllegalArgumentException("org id must have 18 characters");
      }
      this.orgId = orgId;
      return this;
    }

    /** User id and username reported by userinfo and the token {@code id}. */
    public Builder user(String userId, String username) {
      this.userId = Objects.requireNonNull(userId);
      this.username = Objects.requireNonNull(username);
      return this;
    }

    /** When set, a JWT's {@code sub} must equal this username (default: any non-empty sub). */
    public Builder requireJwtSubject(String username) {
      this.jwtSubject = username;
      return this;
    }

    /** API version without the {@code v}, e.g. {@code 60.0} (default). */
    public Builder apiVersion(String apiVersion) {
      this.apiVersion = Objects.requireNonNull(apiVersion);
      return this;
    }

    /** RSA public key that verifies JWT bearer assertions (none: the JWT flow is refused). */
    public Builder jwtPublicKey(RSAPublicKey key) {
      this.jwtKey = key;
      return this;
    }

    /** The connected app certificate; its RSA public key verifies JWT assertions. */
    public Builder jwtCertificate(X509Certificate cert) {
      PublicKey k = cert.getPublicKey();
      if (!(k instanceof RSAPublicKey rsa)) {
        throw new IllegalArgumentException("certificate key is not RSA");
      }
      this.jwtKey = rsa;
      return this;
    }

    /** Consumer key ({@code iss} of JWTs, {@code client_id} of client credentials). */
    public Builder clientId(String clientId) {
      this.clientId = clientId;
      return this;
    }

    /** Consumer secret for client credentials. */
    public Builder clientSecret(String clientSecret) {
      this.clientSecret = clientSecret;
      return this;
    }

    /** Accepted JWT audiences (default login.salesforce.com and test.salesforce.com). */
    public Builder audiences(Set<String> audiences) {
      this.audiences = Set.copyOf(audiences);
      return this;
    }

    /** Records per query batch before {@code nextRecordsUrl} (default 2000, Salesforce's). */
    public Builder queryBatchSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("batch size must be >= 1");
      }
      this.queryBatchSize = size;
      return this;
    }

    /** Clock for token issue times, JWT expiry and token TTL (default system clock). */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /** Access tokens expire this long after issue per {@link #clock} (default: never). */
    public Builder tokenTtl(Duration ttl) {
      this.tokenTtl = ttl;
      return this;
    }

    /** Upper bound for {@link Fault#delay(Duration)} (default 30 s). */
    public Builder maxFaultDelay(Duration max) {
      this.maxFaultDelay = Objects.requireNonNull(max);
      return this;
    }

    /** The {@code <max>} of {@code Sforce-Limit-Info: api-usage=<n>/<max>} (default 15000). */
    public Builder apiLimit(long max) {
      this.apiMax = max;
      return this;
    }

    /**
     * false simulates an org/user without hourly Event Monitoring: queries naming {@code Interval}
     * or {@code Sequence} answer 400 INVALID_FIELD (ELF-5). Default true.
     */
    public Builder hourlyAvailable(boolean available) {
      this.hourlyAvailable = available;
      return this;
    }

    /**
     * How an {@code INVALID_FIELD} rejection echoes the query (default {@link
     * SoqlErrorEcho#WINDOW}, as Salesforce does; {@link SoqlErrorEcho#FULL_QUERY} for the long form
     * whose {@code errorCode} lies beyond a 500-character excerpt).
     */
    public Builder invalidFieldEcho(SoqlErrorEcho echo) {
      this.errorEcho = Objects.requireNonNull(echo, "echo");
      return this;
    }

    /**
     * Appends a second element {@code {"message":message,"errorCode":errorCode}} to the error array
     * of every {@code INVALID_FIELD} rejection (a two-element error array); null removes it.
     */
    public Builder invalidFieldSecondError(String errorCode, String message) {
      if (errorCode == null) {
        this.secondError = null;
        return this;
      }
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("message", Objects.requireNonNull(message, "message"));
      e.put("errorCode", errorCode);
      this.secondError = java.util.Collections.unmodifiableMap(e);
      return this;
    }

    /** Maximum concurrent exchanges (virtual threads; default 16). */
    public Builder handlerThreads(int n) {
      this.handlerThreads = LoopbackServer.requireHandlerThreads(n);
      return this;
    }

    /** Port to bind on 127.0.0.1 (default 0 = ephemeral). */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /**
     * The sObject names the describe global ({@code GET /sobjects/}) lists, in this order (default
     * {@link SimOrg#DEFAULT_SOBJECTS}).
     */
    public Builder sobjects(List<String> names) {
      this.sobjects = List.copyOf(names);
      return this;
    }

    /**
     * Binds and starts the org.
     *
     * @throws IOException when the port cannot be bound
     */
    public SimOrg start() throws IOException {
      return new SimOrg(this);
    }
  }
}
