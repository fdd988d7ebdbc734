package io.sf2loki.salesforce.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.TokenProvider;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SalesforceRest} over the JDK HTTP client (SPEC SRC-17, SRC-20, SRC-25, AUTH-7, ELF-8,
 * ELF-16). Every call goes to the current token's {@code instance_url}, sends {@code
 * Accept-Encoding: gzip}, and streams the body into a {@link Spool} (memory up to the threshold,
 * then a file in the {@link SpoolDirectory}) under a body idle watchdog; a 401 invalidates the
 * token used and is repeated once after a fresh mint. Every response's {@code Date} header updates
 * the clock-skew estimate and {@code Sforce-Limit-Info: api-usage=<used>/<max>} sets {@code
 * sf2loki_salesforce_limit_max/remaining{limit_name="DailyApiRequests"}}. Thread-safe.
 */
public final class HttpSalesforceRest implements SalesforceRest {
  /** The {@code api} attribute of throttles on SOQL queries. */
  public static final String API_SOQL = "soql";

  /** The {@code api} attribute of throttles on EventLogFile downloads (the default). */
  public static final String API_EVENTLOGFILE = "eventlogfile";

  /** The {@code api} attribute of throttles on ApexLog body downloads. */
  public static final String API_APEXLOG_BODY = "apexlog_body";

  /** SRC-20: the skew estimate shifts server now only beyond this magnitude. */
  static final Duration SKEW_APPLY_THRESHOLD = Duration.ofSeconds(30);

  /** SRC-20: a WARN is logged once when the skew exceeds this magnitude. */
  static final Duration SKEW_WARN_THRESHOLD = Duration.ofSeconds(60);

  private static final Logger log = LoggerFactory.getLogger(HttpSalesforceRest.class);
  private static final Pattern API_USAGE = Pattern.compile("^\\s*api-usage=(\\d+)/(\\d+)");
  private static final int EXCERPT_CHARS = 500;
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private enum Kind {
    SOQL,
    DOWNLOAD
  }

  private record Exchange(int status, HttpHeaders headers, Spool body) {}

  private final TokenProvider tokens;
  private final String apiVersion;
  private final HttpClient http;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final SpoolDirectory spoolDirectory;
  private final RestSettings settings;
  private final ObjectMapper json =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private final AtomicLong skewMillis = new AtomicLong();
  private final AtomicBoolean skewWarned = new AtomicBoolean();

  /**
   * A client with SPEC timeouts ({@link RestSettings#defaults()}).
   *
   * @param tokens the org's token provider
   * @param apiVersion e.g. {@code 60.0} (validated by CFG-10)
   * @param http the HTTP client; build it with {@link SalesforceHttpClients#create(Duration)} for
   *     the SRC-25 connect timeout
   * @param metrics the instance's metrics
   * @param time wall clock (skew, server now) and ticker (body idle watchdog)
   * @param spoolDirectory where bodies above the memory threshold are spooled
   */
  public HttpSalesforceRest(
      TokenProvider tokens,
      String apiVersion,
      HttpClient http,
      Sf2lokiMetrics metrics,
      TimeSource time,
      SpoolDirectory spoolDirectory) {
    this(tokens, apiVersion, http, metrics, time, spoolDirectory, RestSettings.defaults());
  }

  /**
   * @param tokens the org's token provider
   * @param apiVersion e.g. {@code 60.0} (validated by CFG-10)
   * @param http the HTTP client (connect timeout, SRC-25)
   * @param metrics the instance's metrics
   * @param time wall clock (skew, server now) and ticker (body idle watchdog)
   * @param spoolDirectory where bodies above the memory threshold are spooled
   * @param settings response-headers and body idle timeouts, spool threshold
   */
  public HttpSalesforceRest(
      TokenProvider tokens,
      String apiVersion,
      HttpClient http,
      Sf2lokiMetrics metrics,
      TimeSource time,
      SpoolDirectory spoolDirectory,
      RestSettings settings) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.apiVersion = Objects.requireNonNull(apiVersion, "apiVersion");
    this.http = Objects.requireNonNull(http, "http");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.time = Objects.requireNonNull(time, "time");
    this.spoolDirectory = Objects.requireNonNull(spoolDirectory, "spoolDirectory");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  @Override
  public String apiVersion() {
    return apiVersion;
  }

  @Override
  public List<Map<String, Object>> query(String soql) throws SoqlException, InterruptedException {
    return runQuery("/services/data/v" + apiVersion + "/query?q=" + encodeQuery(soql));
  }

  /**
   * Like {@link #query(String)} against the Tooling API ({@code /tooling/query}, SRC-17).
   *
   * @throws SoqlException as {@link #query(String)}
   * @throws InterruptedException if interrupted
   */
  public List<Map<String, Object>> toolingQuery(String soql)
      throws SoqlException, InterruptedException {
    return runQuery("/services/data/v" + apiVersion + "/tooling/query?q=" + encodeQuery(soql));
  }

  /**
   * {@code GET {instance_url}{path}} returning a JSON object (e.g. {@code /limits} for OBS-12,
   * describe calls), typed like query records (SRC-7). Errors as {@link #query(String)}; the
   * throttle counts {@code api="soql"}.
   *
   * @param path absolute path starting with {@code /}
   * @return the top-level object as an ordered map
   * @throws SoqlException on any failure, {@link MalformedResponseException} when the 2xx body is
   *     not a JSON object
   * @throws InterruptedException if interrupted
   */
  public Map<String, Object> getObject(String path) throws SoqlException, InterruptedException {
    Exchange ex = sendSoql(path);
    try (Spool body = ex.body()) {
      return parseObject(body, ex.status());
    }
  }

  /** Downloads with throttles counted as {@code api="eventlogfile"} (ELF-8), validated (SRC-28). */
  @Override
  public Spool download(String path, DownloadValidator.Expectation expected)
      throws DownloadException, InterruptedException {
    return download(path, API_EVENTLOGFILE, expected);
  }

  /**
   * {@link #download(String)} with the {@code api} attribute of {@code
   * sf2loki_salesforce_api_throttled} chosen by the caller ({@link #API_EVENTLOGFILE}, {@link
   * #API_APEXLOG_BODY}).
   *
   * @param expected the size Salesforce announced, if any ({@link DownloadValidator})
   * @throws DownloadThrottledException on 403 REQUEST_LIMIT_EXCEEDED
   * @throws InvalidBodyException on a 2xx body that is not the log (SRC-28)
   * @throws DownloadException on other non-2xx statuses (after the one 401 retry), token failures
   *     (status 0) and transport failures including the body idle timeout (status 0)
   * @throws InterruptedException if interrupted
   */
  public Spool download(String path, String api, DownloadValidator.Expectation expected)
      throws DownloadException, InterruptedException {
    Exchange ex;
    try {
      ex = sendChecked(path, Kind.DOWNLOAD, api);
    } catch (DownloadException e) {
      throw e;
    } catch (SalesforceException e) {
      throw new DownloadException(e.getMessage(), e.status(), e.errorCode(), e.errorCodes(), e);
    }
    String contentType = ex.headers().firstValue("Content-Type").orElse(null);
    try {
      DownloadValidator.check(ex.status(), expected, contentType, ex.body());
    } catch (InvalidBodyException e) {
      ex.body().close();
      log.atDebug()
          .addKeyValue("path", redactPath(path))
          .addKeyValue("content_type", contentType)
          .addKeyValue("problem", e.problem())
          .log("salesforce download is not the log");
      throw e;
    }
    return ex.body();
  }

  @Override
  public Instant serverNow() {
    Instant now = time.now();
    long skew = skewMillis.get();
    return Math.abs(skew) > SKEW_APPLY_THRESHOLD.toMillis() ? now.plusMillis(skew) : now;
  }

  /** The latest skew estimate ({@code server Date − local now}), zero before any response. */
  public Duration clockSkew() {
    return Duration.ofMillis(skewMillis.get());
  }

  // ---------------------------------------------------------------------------------------------

  private List<Map<String, Object>> runQuery(String firstPath)
      throws SoqlException, InterruptedException {
    List<Map<String, Object>> records = new ArrayList<>();
    Set<String> visited = new HashSet<>();
    String path = firstPath;
    while (true) {
      Map<String, Object> page;
      Exchange ex = sendSoql(path);
      try (Spool body = ex.body()) {
        page = parseObject(body, ex.status());
      }
      if (!(page.get("records") instanceof List<?> list)) {
        throw malformed("malformed response: no records array", ex.status());
      }
      for (Object r : list) {
        if (!(r instanceof Map<?, ?>)) {
          throw malformed("malformed response: a record is not an object", ex.status());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> rec = (Map<String, Object>) r;
        records.add(rec);
      }
      if (!Boolean.FALSE.equals(page.get("done"))) {
        return records;
      }
      if (!(page.get("nextRecordsUrl") instanceof String next) || !next.startsWith("/")) {
        throw malformed("malformed response: done is false without nextRecordsUrl", ex.status());
      }
      if (!isUriReference(next)) {
        throw malformed("malformed response: nextRecordsUrl is not a URL path", ex.status());
      }
      // a query locator names each page once: a repeat would page forever (fuzz find)
      if (!visited.add(next)) {
        throw malformed("malformed response: nextRecordsUrl repeats an earlier page", ex.status());
      }
      path = next;
    }
  }

  /** Whether {@code path} is a valid URI reference (RFC 3986), so instance URL + path is a URI. */
  private static boolean isUriReference(String path) {
    try {
      new URI(path);
      return true;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  /** SRC-29: a named, counted error for a 2xx answer that is not the expected JSON. */
  private MalformedResponseException malformed(String message, int status) {
    metrics.salesforceMalformedResponses.add(1, Attributes.of(Sf2lokiMetrics.API, API_SOQL));
    return new MalformedResponseException(message, status);
  }

  private Map<String, Object> parseObject(Spool body, int status) throws SoqlException {
    try (InputStream in = body.open()) {
      Map<String, Object> m = json.readValue(in, MAP);
      if (m == null) {
        throw malformed("malformed response: null body", status);
      }
      return m;
    } catch (JsonProcessingException e) {
      throw malformed(
          "malformed response: not a JSON object (" + e.getOriginalMessage() + ")", status);
    } catch (IOException e) {
      throw new SoqlException("cannot read response body: " + e, 0, null, e);
    }
  }

  /**
   * One logical call: token, exchange, one 401 retry after invalidation, error mapping. Returns an
   * {@link Exchange} with a 2xx status whose body the caller owns.
   */
  private Exchange sendSoql(String path) throws SoqlException, InterruptedException {
    Exchange ex;
    try {
      ex = sendChecked(path, Kind.SOQL, API_SOQL);
    } catch (SoqlException e) {
      throw e;
    } catch (SalesforceException e) {
      throw new SoqlException(e.getMessage(), e.status(), e.errorCode(), e.errorCodes(), e);
    }
    String type = ex.headers().firstValue("Content-Type").orElse("");
    if (type.toLowerCase(Locale.ROOT).contains("html")
        || DownloadValidator.looksLikeHtml(ex.body())) {
      ex.body().close();
      throw malformed(
          "malformed response: an HTML page, not JSON (content type "
              + (type.isEmpty() ? "absent" : type)
              + ")",
          ex.status());
    }
    return ex;
  }

  private Exchange sendChecked(String path, Kind kind, String api)
      throws SalesforceException, InterruptedException {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with /");
    }
    for (int attempt = 1; ; attempt++) {
      AccessToken token;
      try {
        token = tokens.token();
      } catch (AuthException e) {
        throw failure(
            kind, "authentication failed: " + e.getMessage(), 0, e.errorCode(), e.errorCodes(), e);
      }
      Exchange ex;
      try {
        ex = exchange(URI.create(token.instanceUrl() + path), token, kind);
      } catch (IOException e) {
        throw failure(kind, "transport failure: " + describe(e), 0, null, Set.of(), e);
      }
      observeHeaders(ex.headers());
      int status = ex.status();
      if (status / 100 == 2) {
        return ex;
      }
      // SRC-27: classify on the whole (bounded) body; the excerpt is only for the message
      SalesforceErrorBody errors = SalesforceErrorBody.read(ex.body());
      String body = excerpt(ex.body(), token);
      ex.body().close();
      if (status == 401 && attempt == 1) {
        log.atDebug().addKeyValue("path", redactPath(path)).log("salesforce 401: re-minting token");
        tokens.invalidate(token);
        continue;
      }
      String code = errors.primaryCode().orElse(null);
      String message = "HTTP " + status + ": " + body;
      if (status == 403 && errors.hasCode(SalesforceErrorBody.REQUEST_LIMIT_EXCEEDED)) {
        metrics.salesforceApiThrottled.add(1, Attributes.of(Sf2lokiMetrics.API, api));
        throw kind == Kind.SOQL
            ? new SoqlThrottledException(message)
            : new DownloadThrottledException(message);
      }
      if (kind == Kind.SOQL && status == 400 && errors.hasCode("INVALID_FIELD")) {
        throw new InvalidFieldException(message, errors.invalidFields(), errors.codes());
      }
      if (kind == Kind.SOQL && status == 400 && errors.hasCode("MALFORMED_QUERY")) {
        throw new MalformedQueryException(message);
      }
      throw failure(kind, message, status, code, errors.codes(), null);
    }
  }

  private static SalesforceException failure(
      Kind kind, String message, int status, String code, Set<String> codes, Throwable cause) {
    return kind == Kind.SOQL
        ? new SoqlException(message, status, code, codes, cause)
        : new DownloadException(message, status, code, codes, cause);
  }

  /** One HTTP exchange with the body spooled under the idle watchdog; gzip decoded. */
  private Exchange exchange(URI uri, AccessToken token, Kind kind)
      throws IOException, InterruptedException {
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(uri)
            .timeout(settings.responseHeadersTimeout())
            .header("Authorization", token.authorizationHeader())
            .header("Accept-Encoding", "gzip")
            .GET();
    if (kind == Kind.SOQL) {
      rb.header("Accept", "application/json");
    }
    SpoolWriter writer = new SpoolWriter(spoolDirectory, settings.spoolMemoryThresholdBytes());
    CompletableFuture<SpoolingSubscriber> started = new CompletableFuture<>();
    CompletableFuture<HttpResponse<Void>> response =
        http.sendAsync(
            rb.build(),
            info -> {
              SpoolingSubscriber s = new SpoolingSubscriber(writer, time.ticker());
              started.complete(s);
              return s;
            });
    HttpResponse<Void> resp = await(response, started);
    Spool raw = writer.finish();
    String encoding = resp.headers().firstValue("Content-Encoding").orElse("");
    if (!encoding.toLowerCase(Locale.ROOT).contains("gzip")) {
      return new Exchange(resp.statusCode(), resp.headers(), raw);
    }
    SpoolWriter decoded = new SpoolWriter(spoolDirectory, settings.spoolMemoryThresholdBytes());
    try (raw;
        InputStream in = new GZIPInputStream(raw.open(), 64 * 1024)) {
      in.transferTo(decoded);
      return new Exchange(resp.statusCode(), resp.headers(), decoded.finish());
    } catch (IOException e) {
      decoded.abort();
      throw new IOException("gzip body does not decode: " + e.getMessage(), e);
    }
  }

  /**
   * Waits for the response; before the headers arrive the request timeout applies, afterwards the
   * body fails when no byte arrived for {@code bodyIdleTimeout} (SRC-25, measured on the ticker).
   */
  private HttpResponse<Void> await(
      CompletableFuture<HttpResponse<Void>> response, CompletableFuture<SpoolingSubscriber> started)
      throws IOException, InterruptedException {
    long idleNanos = settings.bodyIdleTimeout().toNanos();
    try {
      while (true) {
        long waitNanos = idleNanos;
        SpoolingSubscriber s = started.getNow(null);
        if (s != null) {
          long idle = time.ticker().nanoTime() - s.lastProgressNanos();
          if (idle >= idleNanos && !response.isDone()) {
            HttpTimeoutException timeout =
                new HttpTimeoutException(
                    "no body byte for " + settings.bodyIdleTimeout().toMillis() + " ms");
            s.abort(timeout);
            s.discard();
            response.cancel(true);
            throw timeout;
          }
          waitNanos = Math.max(1, idleNanos - idle);
        }
        try {
          return response.get(waitNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          // re-check the watchdog
        }
      }
    } catch (InterruptedException e) {
      SpoolingSubscriber s = started.getNow(null);
      if (s != null) {
        s.abort(new IOException("interrupted"));
        s.discard();
      }
      response.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      SpoolingSubscriber s = started.getNow(null);
      if (s != null) {
        s.discard();
      }
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      throw new IOException(c == null ? "request failed" : c.toString(), c);
    }
  }

  private void observeHeaders(HttpHeaders headers) {
    headers.firstValue("Date").ifPresent(this::observeDate);
    headers.firstValue("Sforce-Limit-Info").ifPresent(this::observeLimitInfo);
  }

  private void observeDate(String value) {
    Instant server;
    try {
      server = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      return;
    }
    long skew = Duration.between(time.now(), server).toMillis();
    skewMillis.set(skew);
    if (Math.abs(skew) > SKEW_WARN_THRESHOLD.toMillis() && skewWarned.compareAndSet(false, true)) {
      log.atWarn()
          .addKeyValue("skew_seconds", skew / 1000.0)
          .log("local clock differs from salesforce server time");
    }
  }

  private void observeLimitInfo(String value) {
    for (String part : value.split(",")) {
      Matcher m = API_USAGE.matcher(part);
      if (m.find()) {
        try {
          long used = Long.parseLong(m.group(1));
          long max = Long.parseLong(m.group(2));
          Attributes a = Attributes.of(Sf2lokiMetrics.LIMIT_NAME, "DailyApiRequests");
          metrics.salesforceLimitMax.set(max, a);
          metrics.salesforceLimitRemaining.set(max - used, a);
        } catch (NumberFormatException e) {
          // ignore a malformed header
        }
      }
    }
  }

  private static String excerpt(Spool body, AccessToken token) {
    byte[] head;
    try (InputStream in = body.open()) {
      head = in.readNBytes(4 * EXCERPT_CHARS);
    } catch (IOException e) {
      return "";
    }
    String s = new String(head, StandardCharsets.UTF_8).replace(token.value(), "***");
    s = s.replaceAll("\\s+", " ").strip();
    return s.length() > EXCERPT_CHARS ? s.substring(0, EXCERPT_CHARS) + "…" : s;
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : " (" + m + ")");
  }

  private static String redactPath(String path) {
    int q = path.indexOf('?');
    return q < 0 ? path : path.substring(0, q);
  }

  private static String encodeQuery(String soql) {
    return URLEncoder.encode(soql, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
