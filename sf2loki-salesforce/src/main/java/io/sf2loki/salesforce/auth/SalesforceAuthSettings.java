package io.sf2loki.salesforce.auth;

import io.sf2loki.core.settings.Setting;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Authentication settings of one org, already validated by configuration loading (CFG-7, CFG-8,
 * CFG-13, CFG-14). {@link #toString()} never prints the secret or the private key (AUTH-10).
 *
 * @param loginUrl the effective login URL (CFG-13: already derived from {@code environment} when
 *     the configured value was empty), e.g. {@code https://login.salesforce.com}; the token
 *     endpoint is {@code {loginUrl}/services/oauth2/token}
 * @param environment {@code production} or {@code sandbox}; selects the default JWT audience
 * @param authMode the OAuth flow
 * @param clientId the connected app's consumer key (JWT {@code iss}, or {@code client_id})
 * @param clientSecret the consumer secret; required for {@link AuthMode#CLIENT_CREDENTIALS}, else
 *     may be null
 * @param username the integration user (JWT {@code sub}); required for {@link AuthMode#JWT_BEARER}
 * @param privateKeyPem the PEM RSA private key (PKCS#8 {@code BEGIN PRIVATE KEY} or PKCS#1 {@code
 *     BEGIN RSA PRIVATE KEY}); required for {@link AuthMode#JWT_BEARER}, else may be null
 * @param jwtAudience JWT {@code aud} override ({@code salesforce.jwt_audience}); empty or null =
 *     derived from {@code environment} (AUTH-3)
 * @param tokenTtl assumed token lifetime ({@code token_ttl}, at least 5 minutes, CFG-14; AUTH-2)
 */
public record SalesforceAuthSettings(
    URI loginUrl,
    String environment,
    AuthMode authMode,
    String clientId,
    String clientSecret,
    String username,
    String privateKeyPem,
    String jwtAudience,
    Duration tokenTtl) {
  /** Definition of the {@code login_url} key (SPEC §1.3). */
  public static final Setting LOGIN_URL =
      Setting.string("login_url", "", "OAuth host; empty = derived from environment.", "CFG-13")
          .defaultText("derived from environment");

  /** Definition of the {@code environment} key (SPEC §1.3). */
  public static final Setting ENVIRONMENT =
      Setting.choice(
          "environment",
          "production",
          List.of("production", "sandbox"),
          "Org kind; also the environment label.",
          "CFG-13");

  /** Definition of the {@code auth_mode} key (SPEC §1.3). */
  public static final Setting AUTH_MODE =
      Setting.choice(
          "auth_mode",
          "jwt_bearer",
          List.of("jwt_bearer", "client_credentials"),
          "OAuth flow.",
          "AUTH-1");

  /** Definition of the {@code client_id} key (SPEC §1.3). */
  public static final Setting CLIENT_ID =
      Setting.string("client_id", null, "Connected app consumer key.", "CFG-8")
          .mandatory()
          .example("3MVG9example.consumer.key");

  /** Definition of the {@code client_secret} key (SPEC §1.3). */
  public static final Setting CLIENT_SECRET =
      Setting.secret(
          "client_secret", "Consumer secret; required for client_credentials.", "CFG-7, CFG-8");

  /** Definition of the {@code username} key (SPEC §1.3). */
  public static final Setting USERNAME =
      Setting.string(
              "username", "", "Integration user (JWT sub); required for jwt_bearer.", "CFG-8")
          .example("integration@example.com");

  /** Definition of the {@code private_key} key (SPEC §1.3). */
  public static final Setting PRIVATE_KEY =
      Setting.secret("private_key", "PEM RSA private key; required for jwt_bearer.", "CFG-7, CFG-8")
          .example("/etc/sf2loki/secrets/private_key");

  /** Definition of the {@code jwt_audience} key (SPEC §1.3). */
  public static final Setting JWT_AUDIENCE =
      Setting.string("jwt_audience", "", "JWT aud; empty = derived from environment.", "AUTH-3");

  /** Definition of the {@code token_ttl} key (SPEC §1.3). */
  public static final Setting TOKEN_TTL =
      Setting.duration("token_ttl", Duration.ofHours(1), "Access token lifetime assumed.", "CFG-14")
          .atLeast(300);

  public SalesforceAuthSettings {
    Objects.requireNonNull(loginUrl, "loginUrl");
    Objects.requireNonNull(authMode, "authMode");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(tokenTtl, "tokenTtl");
    environment = environment == null ? "production" : environment;
    jwtAudience = jwtAudience == null ? "" : jwtAudience;
    username = username == null ? "" : username;
  }

  /**
   * The JWT audience of AUTH-3: {@link #jwtAudience()} when set, else {@code
   * https://test.salesforce.com} for {@code sandbox}, else {@code https://login.salesforce.com}.
   * Never derived from {@link #loginUrl()}.
   */
  public String effectiveAudience() {
    if (!jwtAudience.isBlank()) {
      return jwtAudience.strip();
    }
    return "sandbox".equalsIgnoreCase(environment.strip())
        ? "https://test.salesforce.com"
        : "https://login.salesforce.com";
  }

  /** The token endpoint {@code {loginUrl}/services/oauth2/token}. */
  public URI tokenEndpoint() {
    String base = loginUrl.toString();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + "/services/oauth2/token");
  }

  @Override
  public String toString() {
    return "SalesforceAuthSettings[loginUrl="
        + loginUrl
        + ", environment="
        + environment
        + ", authMode="
        + authMode
        + ", clientId="
        + clientId
        + ", username="
        + username
        + ", jwtAudience="
        + jwtAudience
        + ", tokenTtl="
        + tokenTtl
        + ", clientSecret=***, privateKeyPem=***]";
  }
}
