package io.sf2loki.sim.org;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request routing of a {@link SimOrg}: each path to its endpoint, the per-endpoint call
 * counters and {@code api-usage}, the method check, the next scheduled {@link Fault}, the {@code
 * Authorization: Bearer} check (401 {@code INVALID_SESSION_ID}) and the EventLogFile download.
 * Thread-safe.
 */
final class OrgRouter {
  private static final Logger log = LoggerFactory.getLogger(SimOrg.class);
  private static final Pattern LOGFILE =
      Pattern.compile("^sobjects/EventLogFile/([0-9A-Za-z]{15,18})/LogFile$");

  /** The endpoints the router hands requests to. */
  record Endpoints(
      IdentityEndpoints identity,
      QueryEndpoint queries,
      OpsEndpoints ops,
      ApexLogEndpoints apexLogs,
      SimResponses respond) {}

  /** What to do after counting a call and applying its fault. */
  private enum Next {
    STOP,
    GO,
    TRUNCATE
  }

  private final String apiVersion;
  private final Endpoints endpoints;
  private final FaultSchedule faults;
  private final Duration maxFaultDelay;
  private final CountDownLatch closed;
  private final AtomicLong apiUsage;
  private final SimTokens tokens;
  private final LogFileStore files;
  private final Map<SimEndpoint, AtomicLong> calls = new EnumMap<>(SimEndpoint.class);

  /**
   * @param closed counted down at close: ends a delay fault at once
   * @param apiUsage the org's {@code api-usage} counter (data calls)
   */
  OrgRouter(
      String apiVersion,
      Endpoints endpoints,
      FaultSchedule faults,
      Duration maxFaultDelay,
      CountDownLatch closed,
      AtomicLong apiUsage,
      SimTokens tokens,
      LogFileStore files) {
    this.apiVersion = apiVersion;
    this.endpoints = endpoints;
    this.faults = faults;
    this.maxFaultDelay = maxFaultDelay;
    this.closed = closed;
    this.apiUsage = apiUsage;
    this.tokens = tokens;
    this.files = files;
    for (SimEndpoint ep : SimEndpoint.values()) {
      calls.put(ep, new AtomicLong());
    }
  }

  /** Requests received by {@code endpoint} (ApexLog bodies are counted by their endpoint). */
  long callCount(SimEndpoint endpoint) {
    return calls.get(endpoint).get();
  }

  /** The server's one handler: routes, counts, applies faults, checks the bearer token. */
  void handle(HttpExchange ex) throws IOException {
    try (ex) {
      route(ex);
    } catch (IOException | RuntimeException e) {
      log.atDebug().addKeyValue("path", ex.getRequestURI().getPath()).log("sim org exchange");
      throw e;
    }
  }

  private void route(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    String method = ex.getRequestMethod();
    String dataPrefix = "/services/data/v" + apiVersion + "/";
    if (path.equals("/services/oauth2/token")) {
      if (count(ex, SimEndpoint.TOKEN, "POST", null) == Next.STOP) {
        return;
      }
      endpoints.identity().token(ex);
    } else if (path.equals("/services/oauth2/userinfo")) {
      if (count(ex, SimEndpoint.USERINFO, "GET", null) == Next.STOP || !authorised(ex)) {
        return;
      }
      endpoints.identity().userinfo(ex);
    } else if (path.startsWith(dataPrefix)) {
      String rest = path.substring(dataPrefix.length());
      Matcher lf = LOGFILE.matcher(rest);
      if (rest.equals("query") || rest.equals("query/")) {
        if (count(ex, SimEndpoint.QUERY, "GET", null) == Next.STOP || !authorised(ex)) {
          return;
        }
        endpoints.queries().query(ex);
      } else if (rest.startsWith("query/")) {
        if (count(ex, SimEndpoint.QUERY_MORE, "GET", null) == Next.STOP || !authorised(ex)) {
          return;
        }
        endpoints.queries().queryMore(ex, rest.substring("query/".length()));
      } else if (rest.equals("sobjects") || rest.equals("sobjects/")) {
        if (count(ex, SimEndpoint.SOBJECTS, "GET", null) == Next.STOP || !authorised(ex)) {
          return;
        }
        endpoints.identity().describeGlobal(ex);
      } else if (lf.matches()) {
        Next next = count(ex, SimEndpoint.LOGFILE, "GET", lf.group(1));
        if (next == Next.STOP || !authorised(ex)) {
          return;
        }
        download(ex, lf.group(1), next == Next.TRUNCATE);
      } else if (endpoints.ops().handles(rest, ex.getRequestURI().getRawQuery())) { // DOC-2
        apiUsage.incrementAndGet();
        if (authorised(ex)) {
          endpoints.respond().limitHeader(ex);
          endpoints.ops().handle(ex, rest);
        }
      } else if (endpoints.apexLogs().handles(rest)) { // ApexLog Tooling listing and bodies (APX)
        endpoints.apexLogs().count(rest);
        apiUsage.incrementAndGet();
        if (authorised(ex)) {
          endpoints.respond().limitHeader(ex);
          endpoints.apexLogs().handle(ex, rest);
        }
      } else {
        endpoints.respond().notFound(ex);
      }
    } else {
      endpoints.respond().notFound(ex);
    }
  }

  /**
   * Counts the call, checks the method and applies the next scheduled fault.
   *
   * @return whether (and how) normal processing should continue
   */
  private Next count(HttpExchange ex, SimEndpoint endpoint, String method, String fileId)
      throws IOException {
    calls.get(endpoint).incrementAndGet();
    if (endpoint != SimEndpoint.TOKEN) {
      apiUsage.incrementAndGet();
    }
    if (!ex.getRequestMethod().equalsIgnoreCase(method)) {
      endpoints
          .respond()
          .sfError(
              ex,
              405,
              "METHOD_NOT_ALLOWED",
              "HTTP Method '" + ex.getRequestMethod() + "' not allowed. Allowed are " + method);
      return Next.STOP;
    }
    Optional<Fault> fault = faults.next(endpoint, fileId);
    if (fault.isEmpty()) {
      return Next.GO;
    }
    Fault f = fault.get();
    log.atDebug()
        .addKeyValue("endpoint", endpoint.key())
        .addKeyValue("fault", f.kind())
        .log("sim org fault");
    switch (f.kind()) {
      case STATUS, SALESFORCE_ERROR -> {
        if (endpoint == SimEndpoint.TOKEN) {
          endpoints
              .respond()
              .oauthError(ex, f.status(), f.errorCode().toLowerCase(Locale.ROOT), f.message());
        } else {
          endpoints.respond().sfError(ex, f.status(), f.errorCode(), f.message());
        }
        return Next.STOP;
      }
      case NON_JSON_200, MAINTENANCE_PAGE -> {
        endpoints
            .respond()
            .send(
                ex, 200, "text/html; charset=UTF-8", f.htmlPage().getBytes(StandardCharsets.UTF_8));
        return Next.STOP;
      }
      case DELAY -> {
        Duration d = f.delay().compareTo(maxFaultDelay) > 0 ? maxFaultDelay : f.delay();
        try {
          if (closed.await(d.toNanos(), TimeUnit.NANOSECONDS)) {
            return Next.STOP;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Next.STOP;
        }
        return Next.GO;
      }
      case TRUNCATED_BODY -> {
        return Next.TRUNCATE;
      }
    }
    return Next.GO;
  }

  private boolean authorised(HttpExchange ex) throws IOException {
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      if (tokens.isValid(auth.substring(7).strip())) {
        return true;
      }
    }
    endpoints.respond().sfError(ex, 401, "INVALID_SESSION_ID", "Session expired or invalid");
    return false;
  }

  private void download(HttpExchange ex, String id, boolean truncate) throws IOException {
    SimLogFile f = files.get(id).orElse(null);
    if (f == null) {
      endpoints.respond().notFound(ex);
      return;
    }
    endpoints.respond().limitHeader(ex);
    LogFileResponse.send(ex, f, truncate);
  }
}
