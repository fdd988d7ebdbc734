package io.sf2loki.salesforce.pubsub;

import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SchemaCache.Fetcher} backed by the unary {@code GetSchema} RPC (SPEC PS-1, PS-4) with the
 * PS-2 metadata and a deadline (SRC-25: 30 s). UNAUTHENTICATED or an {@code auth.error} trailer
 * invalidates the token used (AUTH-6); every failure is logged WARN with the call's {@code
 * x-client-trace-id} and rethrown (the reader ends the stream, PS-6). Thread-safe.
 */
public final class GrpcSchemaFetcher implements SchemaCache.Fetcher {
  private static final Logger log = LoggerFactory.getLogger(GrpcSchemaFetcher.class);

  private final Channel channel;
  private final PubSubCredentials credentials;
  private final Duration deadline;

  /**
   * @param channel the org's Pub/Sub channel (PS-1)
   * @param credentials token, invalidation and org id (PS-2)
   * @param deadline per-call deadline (SRC-25: {@link
   *     PubSubReaderSettings#DEFAULT_SCHEMA_DEADLINE})
   */
  public GrpcSchemaFetcher(Channel channel, PubSubCredentials credentials, Duration deadline) {
    this.channel = Objects.requireNonNull(channel, "channel");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  /**
   * @throws StatusRuntimeException when the call fails
   * @throws io.sf2loki.salesforce.auth.AuthException when no token can be minted
   * @throws InterruptedException if interrupted while minting
   */
  @Override
  public String fetchSchemaJson(String schemaId) throws Exception {
    PubSubCallMetadata md = PubSubCallMetadata.fresh(credentials);
    try {
      return PubSubGrpc.newBlockingStub(channel)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md.headers()))
          .withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS)
          .getSchema(SchemaRequest.newBuilder().setSchemaId(schemaId).build())
          .getSchemaJson();
    } catch (StatusRuntimeException e) {
      List<String> trailers = ReplayErrorClassifier.trailerValues(e.getTrailers());
      if (ReplayErrorClassifier.isAuthError(e.getStatus().getCode(), trailers)) {
        credentials.invalidate(md.token());
      }
      log.atWarn()
          .addKeyValue("schema_id", schemaId)
          .addKeyValue("status", e.getStatus().getCode())
          .addKeyValue("description", e.getStatus().getDescription())
          .addKeyValue("error_code", String.join(",", trailers))
          .addKeyValue("x_client_trace_id", md.traceId())
          .log("pubsub GetSchema failed");
      throw e;
    }
  }
}
