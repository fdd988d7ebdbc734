package io.sf2loki.salesforce.pubsub;

import io.grpc.Metadata;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import java.util.Objects;
import java.util.UUID;

/**
 * The per-call metadata of SPEC PS-2: {@code accesstoken} (the current token), {@code instanceurl}
 * (its instance URL), {@code tenantid} (the org id) and {@code x-client-trace-id} (a fresh UUID,
 * logged with any error of that call). Built fresh for every RPC. {@link #toString()} never prints
 * the token (AUTH-10).
 *
 * @param token the token sent; an UNAUTHENTICATED / {@code auth.error} outcome invalidates exactly
 *     this token (AUTH-6)
 * @param traceId the {@code x-client-trace-id} value
 * @param headers the metadata to attach to the call
 */
public record PubSubCallMetadata(AccessToken token, String traceId, Metadata headers) {
  /** {@code accesstoken}. */
  public static final Metadata.Key<String> ACCESS_TOKEN =
      Metadata.Key.of("accesstoken", Metadata.ASCII_STRING_MARSHALLER);

  /** {@code instanceurl}. */
  public static final Metadata.Key<String> INSTANCE_URL =
      Metadata.Key.of("instanceurl", Metadata.ASCII_STRING_MARSHALLER);

  /** {@code tenantid}. */
  public static final Metadata.Key<String> TENANT_ID =
      Metadata.Key.of("tenantid", Metadata.ASCII_STRING_MARSHALLER);

  /** {@code x-client-trace-id}. */
  public static final Metadata.Key<String> TRACE_ID =
      Metadata.Key.of("x-client-trace-id", Metadata.ASCII_STRING_MARSHALLER);

  public PubSubCallMetadata {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(headers, "headers");
  }

  /**
   * Builds fresh metadata for one call.
   *
   * @throws AuthException when no token can be minted or the org id cannot be resolved
   * @throws InterruptedException if interrupted
   */
  public static PubSubCallMetadata fresh(PubSubCredentials credentials)
      throws AuthException, InterruptedException {
    AccessToken token = credentials.token();
    String orgId = credentials.orgId();
    String traceId = UUID.randomUUID().toString();
    Metadata md = new Metadata();
    md.put(ACCESS_TOKEN, token.value());
    md.put(INSTANCE_URL, token.instanceUrl().toString());
    md.put(TENANT_ID, orgId);
    md.put(TRACE_ID, traceId);
    return new PubSubCallMetadata(token, traceId, md);
  }

  @Override
  public String toString() {
    return "PubSubCallMetadata[traceId=" + traceId + "]";
  }
}
