package io.sf2loki.salesforce.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

/**
 * Resolves the org id (SPEC AUTH-8): the configured {@code salesforce.org_id} without any network
 * call, otherwise {@code GET {instance_url}/services/oauth2/userinfo} with the bearer token, field
 * {@code organization_id}, cached for the life of this object on success. Calls follow the AUTH-5
 * retry policy; a 401 invalidates the token used (AUTH-6), mints and retries once. Thread-safe.
 */
public final class OrgIdResolver implements AutoCloseable {
  private final String configured;
  private final TokenProvider tokens;
  private final HttpClient http;
  private final Duration responseTimeout;
  private final StopSignal closed = new StopSignal();
  private final AuthCalls calls;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile String resolved;

  /**
   * A resolver with SPEC defaults (30 s response timeout).
   *
   * @param configuredOrgId {@code salesforce.org_id}; null or blank = resolve via userinfo
   */
  public OrgIdResolver(
      String configuredOrgId, TokenProvider tokens, HttpClient http, TimeSource time) {
    this(
        configuredOrgId,
        tokens,
        http,
        time,
        RandomGenerator.getDefault(),
        TokenProvider.DEFAULT_RESPONSE_TIMEOUT);
  }

  /**
   * @param configuredOrgId {@code salesforce.org_id}; null or blank = resolve via userinfo
   * @param tokens the org's token provider
   * @param http the HTTP client
   * @param time sleeper for the AUTH-5 backoff
   * @param random jitter source
   * @param responseTimeout response-headers timeout of the userinfo call (SRC-25: 30 s)
   */
  public OrgIdResolver(
      String configuredOrgId,
      TokenProvider tokens,
      HttpClient http,
      TimeSource time,
      RandomGenerator random,
      Duration responseTimeout) {
    this.configured =
        configuredOrgId == null || configuredOrgId.isBlank() ? null : configuredOrgId.strip();
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.http = Objects.requireNonNull(http, "http");
    this.responseTimeout = Objects.requireNonNull(responseTimeout, "responseTimeout");
    this.calls = new AuthCalls(http, time, random, closed);
  }

  /**
   * The org id: configured, cached, or resolved now.
   *
   * @throws AuthException when minting or the userinfo call failed ({@code userinfo endpoint HTTP
   *     <code>: <excerpt>}), a second 401, or a body without {@code organization_id}
   * @throws InterruptedException if interrupted
   */
  public String orgId() throws AuthException, InterruptedException {
    return orgId(null);
  }

  /**
   * As {@link #orgId()}, its token and userinfo calls also ended by {@code stop} (CLI-3), never by
   * interrupting the caller.
   *
   * @param stop the caller's stop signal, or null
   * @throws AuthException also when {@code stop} ended a call
   * @throws InterruptedException if interrupted
   */
  public String orgId(StopSignal stop) throws AuthException, InterruptedException {
    if (configured != null) {
      return configured;
    }
    String r = resolved;
    if (r != null) {
      return r;
    }
    lock.lockInterruptibly();
    try {
      if (resolved == null) {
        resolved = fetch(stop);
      }
      return resolved;
    } finally {
      lock.unlock();
    }
  }

  private String fetch(StopSignal stop) throws AuthException, InterruptedException {
    for (int round = 1; ; round++) {
      AccessToken token = tokens.token(stop);
      URI uri = URI.create(token.instanceUrl() + "/services/oauth2/userinfo");
      HttpResponse<String> resp =
          calls.send(
              "userinfo endpoint",
              () ->
                  HttpRequest.newBuilder(uri)
                      .timeout(responseTimeout)
                      .header("Authorization", token.authorizationHeader())
                      .header("Accept", "application/json")
                      .GET()
                      .build(),
              List.of(token.value()),
              round == 1,
              stop);
      if (resp.statusCode() == 401) {
        tokens.invalidate(token);
        continue;
      }
      JsonNode n;
      try {
        n = calls.json().readTree(resp.body());
      } catch (IOException e) {
        n = null;
      }
      if (n == null || !n.hasNonNull("organization_id")) {
        throw new AuthException(
            "userinfo endpoint HTTP " + resp.statusCode() + ": response lacks organization_id",
            resp.statusCode(),
            null,
            null);
      }
      return n.get("organization_id").asText();
    }
  }

  /** Aborts running backoff waits. */
  @Override
  public void close() {
    closed.stop();
  }
}
