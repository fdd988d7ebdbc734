package io.sf2loki.sim.org;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.InstantSource;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * Checks a JWT bearer assertion the way the Salesforce token endpoint does (AUTH-3): RS256
 * signature by the connected app's certificate key, {@code iss} = consumer key, {@code exp} in the
 * future, {@code aud} one of the accepted audiences, {@code sub} present (and equal to the
 * configured username when one is set).
 */
final class JwtAssertionVerifier {
  private final RSASSAVerifier verifier;
  private final String clientId;
  private final Set<String> audiences;
  private final String username;
  private final InstantSource clock;

  JwtAssertionVerifier(
      RSAPublicKey key,
      String clientId,
      Set<String> audiences,
      String username,
      InstantSource clock) {
    this.verifier = new RSASSAVerifier(key);
    this.clientId = clientId;
    this.audiences = Set.copyOf(audiences);
    this.username = username;
    this.clock = clock;
  }

  /**
   * Verifies {@code assertion}.
   *
   * @return the subject (username)
   * @throws OAuthError {@code invalid_grant} / {@code invalid_client_id} as Salesforce answers
   */
  String verify(String assertion) throws OAuthError {
    if (assertion == null || assertion.isEmpty()) {
      throw new OAuthError("invalid_grant", "invalid assertion");
    }
    SignedJWT jwt;
    JWTClaimsSet claims;
    try {
      jwt = SignedJWT.parse(assertion);
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      throw new OAuthError("invalid_grant", "invalid assertion");
    }
    if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm())) {
      throw new OAuthError("invalid_grant", "invalid assertion");
    }
    try {
      if (!jwt.verify(verifier)) {
        throw new OAuthError("invalid_grant", "invalid assertion");
      }
    } catch (JOSEException e) {
      throw new OAuthError("invalid_grant", "invalid assertion");
    }
    if (clientId == null || !clientId.equals(claims.getIssuer())) {
      throw new OAuthError("invalid_client_id", "client identifier invalid");
    }
    Date exp = claims.getExpirationTime();
    if (exp == null || !exp.toInstant().isAfter(clock.instant())) {
      throw new OAuthError("invalid_grant", "expired assertion");
    }
    List<String> aud = claims.getAudience();
    if (aud == null || aud.stream().noneMatch(audiences::contains)) {
      throw new OAuthError("invalid_grant", "audience is invalid");
    }
    String sub = claims.getSubject();
    if (sub == null || sub.isEmpty() || (username != null && !username.equals(sub))) {
      throw new OAuthError("invalid_grant", "user hasn't approved this consumer");
    }
    return sub;
  }

  /** A Salesforce OAuth error answered as 400 {@code {"error":..,"error_description":..}}. */
  static final class OAuthError extends Exception {
    private static final long serialVersionUID = 1L;
    final String error;

    OAuthError(String error, String description) {
      super(description, null, false, false);
      this.error = error;
    }
  }
}
