package io.sf2loki.salesforce.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.rest.SalesforceErrorBody;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The AUTH-5 call policy shared by token and userinfo calls: up to {@link #MAX_ATTEMPTS} attempts,
 * jittered exponential backoff (0.5 s initial, doubling, 10 s max, factor in [0.9, 1.1]) only after
 * transport failures and statuses ≥ 500; a 4xx fails at once. Thread-safe.
 *
 * <p>Stop-aware (CLI-3, AUTH-9): a call ends when its owner's stop ({@link TokenProvider#close()})
 * or the caller's stop fires — a backoff wait returns early and an in-flight request is cancelled
 * through its future, never by interrupting the caller — and fails with an {@link AuthException}
 * ({@code <what> call stopped}, or the last failure when one was seen).
 */
final class AuthCalls {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AuthCalls.class);
  static final int MAX_ATTEMPTS = 4;
  static final Duration INITIAL_BACKOFF = Duration.ofMillis(500);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
  private static final int EXCERPT_CHARS = 300;

  private final HttpClient http;
  private final TimeSource time;
  private final RandomGenerator random;
  private final StopSignal stop;
  private final ObjectMapper json = new ObjectMapper();

  AuthCalls(HttpClient http, TimeSource time, RandomGenerator random, StopSignal stop) {
    this.http = http;
    this.time = time;
    this.random = random;
    this.stop = stop;
  }

  /**
   * Sends the request built by {@code request} under the AUTH-5 policy.
   *
   * @param what the endpoint name for messages, e.g. {@code token endpoint}
   * @param secrets strings removed from any body excerpt before it enters a message (AUTH-10)
   * @param passUnauthorized when true a 401 is returned to the caller instead of failing
   * @return a 2xx response (or a 401 when {@code passUnauthorized})
   */
  HttpResponse<String> send(
      String what, Supplier<HttpRequest> request, List<String> secrets, boolean passUnauthorized)
      throws AuthException, InterruptedException {
    return send(what, request, secrets, passUnauthorized, null);
  }

  /**
   * As {@link #send(String, Supplier, List, boolean)}, also ended by {@code callerStop}.
   *
   * @param callerStop the caller's stop signal (the process stop for the startup probe), or null
   * @throws AuthException also when a stop ended the call ({@code <what> call stopped})
   */
  HttpResponse<String> send(
      String what,
      Supplier<HttpRequest> request,
      List<String> secrets,
      boolean passUnauthorized,
      StopSignal callerStop)
      throws AuthException, InterruptedException {
    if (callerStop == null) {
      return sendUntil(what, request, secrets, passUnauthorized, stop);
    }
    if (callerStop.isStopped()) {
      throw new AuthException(what + " call stopped", 0, null, null);
    }
    StopSignal either = new StopSignal();
    Runnable fromOwner = stop.onStopUntilRemoved(either::stop);
    Runnable fromCaller = callerStop.onStopUntilRemoved(either::stop);
    try {
      return sendUntil(what, request, secrets, passUnauthorized, either);
    } finally {
      fromOwner.run();
      fromCaller.run();
    }
  }

  private HttpResponse<String> sendUntil(
      String what,
      Supplier<HttpRequest> request,
      List<String> secrets,
      boolean passUnauthorized,
      StopSignal until)
      throws AuthException, InterruptedException {
    AuthException last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (attempt > 1) {
        time.sleeper().sleep(backoff(attempt - 1), until);
        if (until.isStopped()) {
          break;
        }
      }
      HttpResponse<String> resp;
      HttpRequest req = request.get();
      try {
        resp = exchange(req, until);
        if (resp == null) {
          break; // stopped while in flight
        }
      } catch (IOException e) {
        // host and cause help at 3 a.m.; the URI's query and user-info never enter the message
        String cause = e.getMessage() == null ? "" : ": " + excerpt(e.getMessage(), secrets);
        last =
            new AuthException(
                what
                    + " transport failure ("
                    + req.uri().getHost()
                    + "): "
                    + e.getClass().getSimpleName()
                    + cause,
                0,
                null,
                null);
        log.atWarn()
            .addKeyValue("endpoint", what)
            .addKeyValue("host", req.uri().getHost())
            .addKeyValue("attempt", attempt)
            .addKeyValue("error", last.getMessage())
            .addKeyValue("max_attempts", MAX_ATTEMPTS)
            .log("salesforce auth call transport failure");
        continue;
      }
      int status = resp.statusCode();
      if (status / 100 == 2 || (passUnauthorized && status == 401)) {
        return resp;
      }
      AuthException failure =
          new AuthException(
              what + " HTTP " + status + ": " + excerpt(resp.body(), secrets),
              status,
              errorCode(resp.body()),
              null);
      if (status < 500) {
        throw failure;
      }
      last = failure;
    }
    throw last != null ? last : new AuthException(what + " call stopped", 0, null, null);
  }

  /**
   * One request, waiting for its response until {@code until} fires: then the exchange is cancelled
   * (the JDK client aborts it) and null is returned. A signal that fired before the attempt leaves
   * it a plain blocking attempt (a closed provider still makes its first attempt).
   *
   * @throws IOException the transport failure
   * @throws InterruptedException if the caller is interrupted (the exchange is cancelled)
   */
  private HttpResponse<String> exchange(HttpRequest req, StopSignal until)
      throws IOException, InterruptedException {
    if (until.isStopped()) {
      // already stopped before this attempt (a closed provider): one plain attempt, as before
      return http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
    CompletableFuture<HttpResponse<String>> f =
        http.sendAsync(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    Runnable unregister = until.onStopUntilRemoved(() -> f.cancel(true));
    try {
      return f.get();
    } catch (CancellationException e) {
      return null;
    } catch (InterruptedException e) {
      f.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof CancellationException) {
        return null; // the JDK client completes a cancelled exchange with this cause
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException(cause);
    } finally {
      unregister.run();
    }
  }

  /** Backoff before retry number {@code retry} (1-based): 0.5 s · 2^(retry−1), jittered, ≤ 10 s. */
  Duration backoff(int retry) {
    double base = INITIAL_BACKOFF.toMillis() * Math.pow(2, retry - 1);
    double jittered = base * (0.9 + 0.2 * random.nextDouble());
    return Duration.ofMillis((long) Math.min(MAX_BACKOFF.toMillis(), jittered));
  }

  /**
   * The OAuth {@code error} or REST {@code errorCode} of an error body by the SRC-27 precedence,
   * read from the whole (bounded) body, not from the excerpt; null without one.
   */
  String errorCode(String body) {
    return SalesforceErrorBody.parse(body).primaryCode().orElse(null);
  }

  static String excerpt(String body, List<String> secrets) {
    if (body == null) {
      return "";
    }
    String s = body;
    for (String secret : secrets) {
      if (secret != null && secret.length() >= 4) {
        s = s.replace(secret, "***");
      }
    }
    s = s.replaceAll("\\s+", " ").strip();
    return s.length() > EXCERPT_CHARS ? s.substring(0, EXCERPT_CHARS) + "…" : s;
  }

  ObjectMapper json() {
    return json;
  }
}
