package io.sf2loki.salesforce.auth;

import io.sf2loki.salesforce.rest.SalesforceException;

/**
 * Minting a token or resolving the org id failed (AUTH-5, AUTH-8): {@code token endpoint HTTP
 * <code>: <body excerpt>} for a 4xx or a last 5xx, or a transport failure after the last attempt.
 * {@link #errorCode()} is the Salesforce OAuth {@code error} (e.g. {@code invalid_grant}) when the
 * body had one. The message never contains the assertion, secret, private key or a token (AUTH-10).
 */
public class AuthException extends SalesforceException {
  public AuthException(String message, int status, String errorCode, Throwable cause) {
    super(message, status, errorCode, cause);
  }
}
