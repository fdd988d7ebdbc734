package io.sf2loki.sim.pubsub;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The {@link SimPubSub}'s call recorder and PS-2 check: records every call, then requires {@code
 * accesstoken} (valid per the validator), {@code instanceurl} and {@code tenantid} when configured;
 * a refused call ends {@code UNAUTHENTICATED} with trailer {@code error-code: }{@value
 * SimPubSub#AUTH_ERROR}. An accepted call carries its token in {@link #TOKEN_CTX}. Thread-safe.
 */
final class PubSubAuth implements ServerInterceptor {
  /** The accepted call's access token. */
  static final Context.Key<String> TOKEN_CTX = Context.key("sim-pubsub-accesstoken");

  private static final Metadata.Key<String> ACCESS_TOKEN =
      Metadata.Key.of("accesstoken", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> INSTANCE_URL =
      Metadata.Key.of("instanceurl", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> TENANT_ID =
      Metadata.Key.of("tenantid", Metadata.ASCII_STRING_MARSHALLER);

  private final InstantSource clock;
  private final Predicate<String> tokenValidator;
  private final String orgId;
  private final String instanceUrl;
  private final List<RecordedCall> calls = new ArrayList<>(); // guarded by itself

  /**
   * @param orgId required {@code tenantid}, or null (not checked)
   * @param instanceUrl required {@code instanceurl} (a trailing slash ignored), or null
   */
  PubSubAuth(
      InstantSource clock, Predicate<String> tokenValidator, String orgId, String instanceUrl) {
    this.clock = clock;
    this.tokenValidator = tokenValidator;
    this.orgId = orgId;
    this.instanceUrl = instanceUrl == null ? null : stripSlash(instanceUrl);
  }

  /** Every call received so far, in arrival order, refused ones included. */
  List<RecordedCall> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    Map<String, String> md = new TreeMap<>();
    for (String k : headers.keys()) {
      if (!k.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
        String v = headers.get(Metadata.Key.of(k, Metadata.ASCII_STRING_MARSHALLER));
        if (v != null) {
          md.put(k, v);
        }
      }
    }
    synchronized (calls) {
      calls.add(
          new RecordedCall(
              call.getMethodDescriptor().getBareMethodName(), Map.copyOf(md), clock.instant()));
    }
    String token = headers.get(ACCESS_TOKEN);
    String url = headers.get(INSTANCE_URL);
    boolean ok =
        token != null
            && !token.isEmpty()
            && tokenValidator.test(token)
            && (instanceUrl == null || (url != null && instanceUrl.equals(stripSlash(url))))
            && (orgId == null || orgId.equals(headers.get(TENANT_ID)));
    if (!ok) {
      call.close(
          Status.UNAUTHENTICATED.withDescription("authentication failed"),
          trailer(SimPubSub.AUTH_ERROR));
      return new ServerCall.Listener<>() {};
    }
    return Contexts.interceptCall(
        Context.current().withValue(TOKEN_CTX, token), call, headers, next);
  }

  /** Trailers with {@code error-code: <errorCode>}, or empty for null. */
  static Metadata trailer(String errorCode) {
    Metadata m = new Metadata();
    if (errorCode != null) {
      m.put(SimPubSub.ERROR_CODE_KEY, errorCode);
    }
    return m;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
