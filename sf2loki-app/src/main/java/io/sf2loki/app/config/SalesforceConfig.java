package io.sf2loki.app.config;

import io.sf2loki.salesforce.auth.AuthMode;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code salesforce} / {@code orgs[].salesforce} (SPEC §1.3, CFG-8, CFG-10, CFG-13, CFG-14): the
 * token provider's settings the binder built, plus the keys only the application reads. The other
 * accessors are views of {@link #auth()}.
 *
 * @param auth login URL (CFG-13: already derived from {@code environment} when empty), environment,
 *     auth mode, client id, secret, username, private key, JWT audience, token TTL
 * @param apiVersion e.g. {@code 60.0}
 * @param orgId 15- or 18-character org id, else resolved via userinfo (AUTH-8)
 * @param limits org-limits poller settings (OBS-12)
 */
public record SalesforceConfig(
    SalesforceAuthSettings auth, String apiVersion, Optional<String> orgId, Limits limits) {

  /** The effective login URL (CFG-13). */
  public String loginUrl() {
    return auth.loginUrl().toString();
  }

  /** {@code production} (default) or {@code sandbox}; also the {@code environment} label. */
  public String environment() {
    return auth.environment();
  }

  /** {@code auth_mode}. */
  public AuthMode authMode() {
    return auth.authMode();
  }

  /** The connected app's consumer key. */
  public String clientId() {
    return auth.clientId();
  }

  /** JWT {@code sub}; may be {@code ""} for client_credentials. */
  public String username() {
    return auth.username();
  }

  /** {@code client_secret} (CFG-7), when configured. */
  public Optional<Secret> clientSecret() {
    return Optional.ofNullable(auth.clientSecret()).map(Secret::new);
  }

  /** {@code private_key} PEM text (CFG-7), when configured. */
  public Optional<Secret> privateKey() {
    return Optional.ofNullable(auth.privateKeyPem()).map(Secret::new);
  }

  /** JWT {@code aud}; {@code ""} = derived from environment (AUTH-3). */
  public String jwtAudience() {
    return auth.jwtAudience();
  }

  /** {@code token_ttl}, at least 5 minutes (CFG-14). */
  public Duration tokenTtl() {
    return auth.tokenTtl();
  }

  /**
   * {@code salesforce.limits}.
   *
   * @param enabled default false
   * @param pollInterval default 5 minutes, strictly positive
   * @param reservePercent OBS-21 API reserve in percent of DailyApiRequests Max, 0–100; 0 = off
   */
  public record Limits(boolean enabled, Duration pollInterval, double reservePercent) {}
}
