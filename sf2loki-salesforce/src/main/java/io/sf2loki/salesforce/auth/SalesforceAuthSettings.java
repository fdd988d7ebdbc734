package io.sf2loki.salesforce.auth;

import java.net.URI;
import java.time.Duration;
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

  /** Default {@code token_ttl} (1 hour). */
  public static final Duration DEFAULT_TOKEN_TTL = Duration.ofHours(1);

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
