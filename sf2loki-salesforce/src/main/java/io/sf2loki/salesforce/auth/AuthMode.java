package io.sf2loki.salesforce.auth;

/** The OAuth flow used to mint access tokens (SPEC AUTH-3, AUTH-4; key {@code auth_mode}). */
public enum AuthMode {
  /** {@code jwt_bearer}: an RS256-signed JWT assertion (AUTH-3). */
  JWT_BEARER,
  /** {@code client_credentials}: client id and secret against the My Domain host (AUTH-4). */
  CLIENT_CREDENTIALS
}
