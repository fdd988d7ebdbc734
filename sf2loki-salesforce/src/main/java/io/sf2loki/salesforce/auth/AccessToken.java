package io.sf2loki.salesforce.auth;

import java.net.URI;
import java.time.Instant;
import java.util.Objects;

/**
 * A minted Salesforce access token (AUTH-1). {@link #toString()} never prints the value (AUTH-10).
 *
 * @param value the bearer token ({@code access_token})
 * @param instanceUrl the org's {@code instance_url} without a trailing slash; every API call goes
 *     there (AUTH-4)
 * @param expiresAt mint time (wall clock) + {@code token_ttl} (AUTH-2); informational, freshness is
 *     measured on the monotonic clock by {@link TokenProvider}
 */
public record AccessToken(String value, URI instanceUrl, Instant expiresAt) {
  public AccessToken {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(instanceUrl, "instanceUrl");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** {@code Bearer <value>}, for the {@code Authorization} header. */
  public String authorizationHeader() {
    return "Bearer " + value;
  }

  @Override
  public String toString() {
    return "AccessToken[value=***, instanceUrl=" + instanceUrl + ", expiresAt=" + expiresAt + "]";
  }
}
