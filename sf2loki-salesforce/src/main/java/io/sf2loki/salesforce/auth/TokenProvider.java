package io.sf2loki.salesforce.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-org token provider (SPEC AUTH-1…AUTH-6, AUTH-10). Holds at most one cached {@link
 * AccessToken}; concurrent callers of {@link #token()} trigger at most one mint (single flight).
 * Thread-safe: the cache is an atomic reference, minting is serialised by one lock.
 *
 * <p>Freshness (AUTH-2): a token minted at monotonic time {@code t} is used while {@code now − t <
 * token_ttl − 60 s}; {@link AccessToken#expiresAt()} is the wall-clock mint time + {@code
 * token_ttl}. Minting: {@code POST {login_url}/services/oauth2/token} with the JWT bearer (AUTH-3)
 * or client credentials (AUTH-4) form, retried per AUTH-5; {@code sf2loki_auth_refreshes} += 1 per
 * successful mint and {@code sf2loki_auth_errors} += 1 per failed mint.
 */
public final class TokenProvider implements AutoCloseable {
  /** AUTH-2 refresh skew. */
  public static final Duration REFRESH_SKEW = Duration.ofSeconds(60);

  /** AUTH-3 JWT lifetime. */
  public static final Duration JWT_LIFETIME = Duration.ofSeconds(180);

  /** SRC-25 response-headers timeout of token and userinfo calls. */
  public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(30);

  static final String JWT_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  private static final Logger log = LoggerFactory.getLogger(TokenProvider.class);

  private record Cached(AccessToken token, long mintedNanos) {}

  private final SalesforceAuthSettings settings;
  private final HttpClient http;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final Duration responseTimeout;
  private final RSAPrivateKey privateKey;
  private final StopSignal closed = new StopSignal();
  private final AuthCalls calls;
  private final AtomicReference<Cached> cache = new AtomicReference<>();
  private final ReentrantLock mintLock = new ReentrantLock();
  // written under mintLock: number of finished mints and the failure of the latest one (or null)
  private volatile long mintsFinished;
  private AuthException lastFailure;

  /**
   * A provider with SPEC defaults (30 s response timeout, default random source).
   *
   * @throws IllegalArgumentException when the JWT bearer private key does not parse
   */
  public TokenProvider(
      SalesforceAuthSettings settings, HttpClient http, Sf2lokiMetrics metrics, TimeSource time) {
    this(settings, http, metrics, time, RandomGenerator.getDefault(), DEFAULT_RESPONSE_TIMEOUT);
  }

  /**
   * @param settings the org's authentication settings
   * @param http the HTTP client (its connect timeout applies, SRC-25: 10 s)
   * @param metrics the instance's metrics
   * @param time wall clock (JWT {@code exp}, {@code expiresAt}), ticker (freshness) and sleeper
   *     (AUTH-5 backoff)
   * @param random jitter source for the AUTH-5 backoff
   * @param responseTimeout response-headers timeout per token call (SRC-25: 30 s)
   * @throws IllegalArgumentException when the JWT bearer private key does not parse (the message
   *     never contains the key)
   */
  public TokenProvider(
      SalesforceAuthSettings settings,
      HttpClient http,
      Sf2lokiMetrics metrics,
      TimeSource time,
      RandomGenerator random,
      Duration responseTimeout) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.http = Objects.requireNonNull(http, "http");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.time = Objects.requireNonNull(time, "time");
    this.responseTimeout = Objects.requireNonNull(responseTimeout, "responseTimeout");
    this.privateKey =
        settings.authMode() == AuthMode.JWT_BEARER
            ? PemKeys.parseRsaPrivateKey(settings.privateKeyPem())
            : null;
    this.calls = new AuthCalls(http, time, random, closed);
  }

  /** The settings this provider mints with. */
  public SalesforceAuthSettings settings() {
    return settings;
  }

  /**
   * Returns the cached token while fresh (AUTH-2), otherwise mints one; concurrent callers share
   * one mint (AUTH-1).
   *
   * @throws AuthException when minting failed (4xx at once; transport/5xx after 4 attempts)
   * @throws InterruptedException if interrupted while waiting for the mint lock or a backoff
   */
  public AccessToken token() throws AuthException, InterruptedException {
    return token(null);
  }

  /**
   * As {@link #token()}, a mint it starts also ended by {@code stop} (its backoff waits end and its
   * in-flight call is cancelled; CLI-3), never by interrupting the caller.
   *
   * @param stop the caller's stop signal, or null
   * @throws AuthException when minting failed or {@code stop} ended it
   * @throws InterruptedException if interrupted while waiting for the mint lock or a backoff
   */
  public AccessToken token(StopSignal stop) throws AuthException, InterruptedException {
    Cached c = cache.get();
    if (fresh(c)) {
      return c.token();
    }
    long seen = mintsFinished;
    mintLock.lockInterruptibly();
    try {
      c = cache.get();
      if (fresh(c)) {
        return c.token();
      }
      if (mintsFinished != seen && lastFailure != null) {
        // a mint we waited for failed: share its outcome instead of minting again (AUTH-1)
        throw new AuthException(
            lastFailure.getMessage(), lastFailure.status(), lastFailure.errorCode(), null);
      }
      return mintLocked(stop);
    } finally {
      mintLock.unlock();
    }
  }

  /**
   * Mints a new token regardless of the cache (AUTH-9 startup probe) and caches it.
   *
   * @throws AuthException when minting failed
   * @throws InterruptedException if interrupted
   */
  public AccessToken mint() throws AuthException, InterruptedException {
    return mint(null);
  }

  /**
   * As {@link #mint()}, ended by {@code stop} (CLI-3: the startup probe is cancelled through the
   * process stop signal, not by interrupt): backoff waits end early and an in-flight token call is
   * cancelled; the mint then fails with {@link AuthException} ({@code token endpoint call stopped},
   * or the last failure seen), counted as a failed mint.
   *
   * @param stop the caller's stop signal, or null
   * @throws AuthException when minting failed or was stopped
   * @throws InterruptedException if interrupted
   */
  public AccessToken mint(StopSignal stop) throws AuthException, InterruptedException {
    mintLock.lockInterruptibly();
    try {
      return mintLocked(stop);
    } finally {
      mintLock.unlock();
    }
  }

  /**
   * Conditional invalidation (AUTH-6): discards the cached token only if it is {@code used}; a
   * different, newer cached token is kept. Never blocks on a running mint.
   *
   * @param used the token the caller sent and got 401 / UNAUTHENTICATED for
   */
  public void invalidate(AccessToken used) {
    Cached c = cache.get();
    while (c != null && c.token().equals(used)) {
      if (cache.compareAndSet(c, null)) {
        log.atDebug().log("salesforce access token invalidated");
        return;
      }
      c = cache.get();
    }
  }

  /**
   * Whether a cached token is still fresh (AUTH-2) now, without minting: the ORG-7 readiness detail
   * of an org that failed its startup probe clears once this is true (ORG-12).
   */
  public boolean holdsValidToken() {
    return fresh(cache.get());
  }

  /** Aborts running AUTH-5 backoff waits; later mints fail at once after their first attempt. */
  @Override
  public void close() {
    closed.stop();
  }

  private boolean fresh(Cached c) {
    if (c == null) {
      return false;
    }
    long age = time.ticker().nanoTime() - c.mintedNanos();
    return age < settings.tokenTtl().minus(REFRESH_SKEW).toNanos();
  }

  private AccessToken mintLocked(StopSignal stop) throws AuthException, InterruptedException {
    try {
      AccessToken t = mintOnce(stop);
      mintsFinished++;
      lastFailure = null;
      metrics.authRefreshes.add(1);
      log.atInfo()
          .addKeyValue("flow", settings.authMode().name().toLowerCase(java.util.Locale.ROOT))
          .addKeyValue("instance_url", t.instanceUrl())
          .log("salesforce access token minted");
      return t;
    } catch (AuthException e) {
      mintsFinished++;
      lastFailure = e;
      metrics.authErrors.add(1);
      log.atWarn()
          .addKeyValue("status", e.status())
          .addKeyValue("error_code", e.errorCode())
          .log("salesforce token mint failed");
      throw e;
    }
  }

  private AccessToken mintOnce(StopSignal stop) throws AuthException, InterruptedException {
    List<String> secrets = new ArrayList<>();
    Map<String, String> form;
    if (settings.authMode() == AuthMode.JWT_BEARER) {
      String assertion = assertion();
      secrets.add(assertion);
      form = new java.util.LinkedHashMap<>();
      form.put("grant_type", JWT_GRANT);
      form.put("assertion", assertion);
    } else {
      form = new java.util.LinkedHashMap<>();
      form.put("grant_type", "client_credentials");
      form.put("client_id", settings.clientId());
      form.put("client_secret", settings.clientSecret() == null ? "" : settings.clientSecret());
      if (settings.clientSecret() != null) {
        secrets.add(settings.clientSecret());
        secrets.add(URLEncoder.encode(settings.clientSecret(), StandardCharsets.UTF_8));
      }
    }
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    URI endpoint = settings.tokenEndpoint();
    HttpResponse<String> resp =
        calls.send(
            "token endpoint",
            () ->
                HttpRequest.newBuilder(endpoint)
                    .timeout(responseTimeout)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                    .build(),
            secrets,
            false,
            stop);
    JsonNode n;
    try {
      n = calls.json().readTree(resp.body());
    } catch (IOException e) {
      n = null;
    }
    if (n == null
        || !n.hasNonNull("access_token")
        || !n.hasNonNull("instance_url")
        || n.get("access_token").asText().isEmpty()) {
      throw new AuthException(
          "token endpoint HTTP "
              + resp.statusCode()
              + ": response lacks access_token or instance_url",
          resp.statusCode(),
          null,
          null);
    }
    String value = n.get("access_token").asText();
    URI instanceUrl;
    try {
      String s = n.get("instance_url").asText();
      while (s.endsWith("/")) {
        s = s.substring(0, s.length() - 1);
      }
      instanceUrl = URI.create(s);
    } catch (IllegalArgumentException e) {
      throw new AuthException(
          "token endpoint HTTP " + resp.statusCode() + ": invalid instance_url",
          resp.statusCode(),
          null,
          null);
    }
    long mintedNanos = time.ticker().nanoTime();
    AccessToken token = new AccessToken(value, instanceUrl, time.now().plus(settings.tokenTtl()));
    cache.set(new Cached(token, mintedNanos));
    return token;
  }

  /** The RS256 JWT assertion of AUTH-3 ({@code iss}, {@code sub}, {@code aud}, {@code exp}). */
  String assertion() throws AuthException {
    Instant now = time.now();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(settings.clientId())
            .subject(settings.username())
            .audience(settings.effectiveAudience())
            .expirationTime(Date.from(now.plus(JWT_LIFETIME)))
            .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims);
    try {
      jwt.sign(new RSASSASigner(privateKey));
    } catch (JOSEException e) {
      throw new AuthException("cannot sign the JWT assertion", 0, null, null);
    }
    return jwt.serialize();
  }
}
