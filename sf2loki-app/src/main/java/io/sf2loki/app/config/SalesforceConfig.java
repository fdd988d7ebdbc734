package io.sf2loki.app.config;

import java.time.Duration;
import java.util.Optional;

/**
 * {@code salesforce} / {@code orgs[].salesforce} (SPEC §1.3, CFG-8, CFG-10, CFG-13, CFG-14).
 *
 * @param loginUrl the effective login URL: explicit, or derived from {@code environment} (CFG-13)
 * @param environment {@code production} (default) or {@code sandbox}; also the {@code environment}
 *     label
 * @param authMode {@code jwt_bearer} (default) or {@code client_credentials}
 * @param clientId the connected app consumer key (non-empty)
 * @param clientSecret present when configured inline or via {@code client_secret_file}; required
 *     for client_credentials
 * @param username JWT {@code sub}; non-empty for jwt_bearer, may be {@code ""} otherwise
 * @param privateKey PEM RSA key text; required for jwt_bearer
 * @param apiVersion e.g. {@code 60.0}
 * @param orgId 15- or 18-character org id, else resolved via userinfo (AUTH-8)
 * @param jwtAudience JWT {@code aud}; {@code ""} = derived from environment (AUTH-3)
 * @param tokenTtl at least 5 minutes (default 1 hour)
 * @param limits org-limits poller settings (OBS-12)
 */
public record SalesforceConfig(
    String loginUrl,
    Environment environment,
    AuthMode authMode,
    String clientId,
    Optional<Secret> clientSecret,
    String username,
    Optional<Secret> privateKey,
    String apiVersion,
    Optional<String> orgId,
    String jwtAudience,
    Duration tokenTtl,
    Limits limits) {

  /** {@code salesforce.environment}. */
  public enum Environment implements YamlEnum {
    PRODUCTION("production"),
    SANDBOX("sandbox");

    private final String yaml;

    Environment(String yaml) {
      this.yaml = yaml;
    }

    @Override
    public String yaml() {
      return yaml;
    }
  }

  /** {@code salesforce.auth_mode}. */
  public enum AuthMode implements YamlEnum {
    JWT_BEARER("jwt_bearer"),
    CLIENT_CREDENTIALS("client_credentials");

    private final String yaml;

    AuthMode(String yaml) {
      this.yaml = yaml;
    }

    @Override
    public String yaml() {
      return yaml;
    }
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
