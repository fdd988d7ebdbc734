package io.sf2loki.sim.pubsub;

import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaInfo;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import com.salesforce.eventbus.protobuf.TopicInfo;
import com.salesforce.eventbus.protobuf.TopicRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code eventbus.v1.PubSub} service of a {@link SimPubSub}: {@code GetTopic}, {@code
 * GetSchema} (with the scheduled schema failures) and {@code Subscribe} (a {@link SimSubscription}
 * per call). Runs behind {@link PubSubAuth}.
 */
final class PubSubService extends PubSubGrpc.PubSubImplBase {
  private final StreamContext ctx;
  private final String orgId;

  /**
   * @param orgId the {@code tenant_guid} of {@code GetTopic}, or null (empty)
   */
  PubSubService(StreamContext ctx, String orgId) {
    this.ctx = ctx;
    this.orgId = orgId;
  }

  /** A fresh {@code rpc_id}. */
  static String rpcId() {
    return UUID.randomUUID().toString();
  }

  @Override
  public void getTopic(TopicRequest req, StreamObserver<TopicInfo> out) {
    SimTopic t = ctx.registry().topic(req.getTopicName());
    if (t == null) {
      out.onError(
          Status.NOT_FOUND
              .withDescription("topic not found")
              .asRuntimeException(PubSubAuth.trailer(null)));
      return;
    }
    out.onNext(
        TopicInfo.newBuilder()
            .setTopicName(t.name)
            .setTenantGuid(orgId == null ? "" : orgId)
            .setCanPublish(false)
            .setCanSubscribe(true)
            .setSchemaId(t.schemaId())
            .setRpcId(rpcId())
            .build());
    out.onCompleted();
  }

  @Override
  public void getSchema(SchemaRequest req, StreamObserver<SchemaInfo> out) {
    Optional<Status.Code> fault = ctx.faults().takeSchemaFailure(req.getSchemaId());
    if (fault.isPresent()) {
      out.onError(
          Status.fromCode(fault.get())
              .withDescription("simulated schema failure")
              .asRuntimeException());
      return;
    }
    String json = ctx.registry().schemaJson(req.getSchemaId());
    if (json == null) {
      out.onError(Status.NOT_FOUND.withDescription("schema not found").asRuntimeException());
      return;
    }
    out.onNext(
        SchemaInfo.newBuilder()
            .setSchemaJson(json)
            .setSchemaId(req.getSchemaId())
            .setRpcId(rpcId())
            .build());
    out.onCompleted();
  }

  @Override
  public StreamObserver<FetchRequest> subscribe(StreamObserver<FetchResponse> out) {
    ServerCallStreamObserver<FetchResponse> o = (ServerCallStreamObserver<FetchResponse>) out;
    SimSubscription s = new SimSubscription(ctx, o, PubSubAuth.TOKEN_CTX.get());
    o.setOnCancelHandler(s::cancelled);
    return s;
  }
}
