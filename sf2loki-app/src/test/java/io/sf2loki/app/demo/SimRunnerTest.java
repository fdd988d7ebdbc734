package io.sf2loki.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.sf2loki.app.cli.SimOptions;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.pubsub.PubSubReaderSettings;
import io.sf2loki.salesforce.pubsub.PubSubTopics;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import io.sf2loki.sim.pubsub.SimServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimRunnerTest {
  @TempDir Path dir;

  private SimServers servers;
  private ManagedChannel channel;

  @AfterEach
  void close() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (servers != null) {
      servers.close();
    }
  }

  @Test
  @DisplayName(
      "FEAT-18: sim serves the org, Pub/Sub and a receiver until stopped, and its stdout is one"
          + " configuration that the loader accepts and that points at them")
  void feat18_printsAValidConfigAndStopsCleanly() throws Exception {
    CountDownLatch bannerDone = new CountDownLatch(1);
    ByteArrayOutputStream bytes =
        new ByteArrayOutputStream() {
          @Override
          public synchronized void flush() {
            if (toString(StandardCharsets.UTF_8).contains("sf2loki-sim-state.json")) {
              bannerDone.countDown();
            }
          }
        };
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    StopSignal stop = new StopSignal();
    SimOptions opts = new SimOptions(0, 0, 40, SimOptions.FaultProfile.NONE, OptionalInt.of(0));
    CountDownLatch logSetup = new CountDownLatch(1);
    CompletableFuture<Integer> status =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new SimRunner(out, logSetup::countDown).run(opts, stop);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(bannerDone.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(logSetup.getCount()).isZero();
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(text).startsWith("# sf2loki sim: simulated org http://127.0.0.1:");
    assertThat(text).contains("logs go to stderr");
    Path cfgFile = dir.resolve("sim.yaml");
    Files.writeString(cfgFile, text); // the whole stdout: banner lines are YAML comments
    Sf2lokiConfig cfg = new ConfigLoader().load(cfgFile, Map.of());
    var ps = cfg.orgs().getFirst().sources().pubsub();
    assertThat(ps.channel().tls()).isFalse();
    assertThat(ps.topics()).contains("/event/LoginEventStream", "/data/AccountChangeEvent");
    assertThat(ps.channel().endpoint()).startsWith("127.0.0.1:");
    assertThat(cfg.loki().url().toString()).contains("/loki/api/v1/push");
    assertThat(status).isNotDone();
    stop.stop();
    assertThat(status.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).endsWith("# sf2loki sim: stopped\n");
  }

  @Test
  @DisplayName("FEAT-18: every fault profile injects without failing the servers")
  void feat18_faultProfilesInject() throws Exception {
    start();
    assertThat(servers.loki()).isNull();
    for (SimOptions.FaultProfile p : SimOptions.FaultProfile.values()) {
      SimRunner.inject(p, servers);
    }
    String first = servers.pubsub().topics().getFirst();
    assertThat(servers.pubsub().faults().isSilent(first)).isTrue(); // stream-stalls
    SimRunner.endStall(servers);
    assertThat(servers.pubsub().faults().isSilent(first)).isFalse();
  }

  @Test
  @DisplayName(
      "FEAT-18, PS-8: a stream-stalls silence outlasts the client's 300 s watchdog and recurs")
  void feat18_stallOutlastsTheWatchdog() {
    assertThat(SimRunner.STALL_DURATION).isGreaterThan(PubSubReaderSettings.DEFAULT_WATCHDOG);
    assertThat(SimRunner.STALL_PERIOD).isGreaterThan(SimRunner.STALL_DURATION);
  }

  @Test
  @DisplayName("FEAT-18: server-errors ends an open Subscribe call now with UNAVAILABLE")
  void feat18_serverErrorsDropsAnOpenCall() throws Exception {
    start();
    Call call = subscribe(SimPubSub.LOGIN_TOPIC, ReplayPreset.LATEST, null);
    awaitOpen(SimPubSub.LOGIN_TOPIC);

    SimRunner.inject(SimOptions.FaultProfile.SERVER_ERRORS, servers);

    assertThat(call.end.get(5, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(servers.pubsub().openStreams(SimPubSub.LOGIN_TOPIC)).isZero();
    Call again = subscribe(SimPubSub.LOGIN_TOPIC, ReplayPreset.LATEST, null);
    awaitOpen(SimPubSub.LOGIN_TOPIC); // later calls are served
    assertThat(again.end).isNotDone();
  }

  @Test
  @DisplayName(
      "FEAT-18, PS-15: replayid-corrupted ends an open call, then refuses the resubscribe with"
          + " the stored id with INVALID_ARGUMENT and replayid.corrupted")
  void feat18_replayIdCorruptedActsOnAnOpenCall() throws Exception {
    start();
    String topic = SimPubSub.LOGIN_TOPIC;
    servers.pubsub().publish(topic, 1);
    Call call = subscribe(topic, ReplayPreset.EARLIEST, null);
    FetchResponse r = call.responses.poll(5, TimeUnit.SECONDS);
    assertThat(r).isNotNull();
    byte[] stored = r.getLatestReplayId().toByteArray();

    SimRunner.inject(SimOptions.FaultProfile.REPLAYID_CORRUPTED, servers);

    assertThat(call.end.get(5, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    Call resumed = subscribe(topic, ReplayPreset.CUSTOM, stored);
    assertThat(resumed.end.get(5, TimeUnit.SECONDS).getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(resumed.trailers.get(SimPubSub.ERROR_CODE_KEY))
        .isEqualTo(SimPubSub.REPLAY_CORRUPTED);
    Call fallback = subscribe(topic, ReplayPreset.EARLIEST, null); // one refusal per dropped call
    assertThat(fallback.responses.poll(5, TimeUnit.SECONDS)).isNotNull();
  }

  @Test
  @DisplayName(
      "FEAT-18, PS-20: the org's describe global makes topics [\"*\"] discover only topics the"
          + " simulated Pub/Sub API serves")
  void feat18_discoveryFindsServedTopics() throws Exception {
    start();
    SimOrg org = servers.org();
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            org.instanceUrl()
                                + "/services/data/v"
                                + org.apiVersion()
                                + "/sobjects/"))
                    .header("Authorization", "Bearer " + org.issueToken())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    for (JsonNode o : new ObjectMapper().readTree(r.body()).get("sobjects")) {
      names.add(o.get("name").asText());
    }
    List<String> discovered = PubSubTopics.discoveredTopics(names);
    assertThat(discovered)
        .containsExactly(SimPubSub.API_TOPIC, SimPubSub.LOGIN_TOPIC)
        .allSatisfy(t -> assertThat(servers.pubsub().topics()).contains(t));
  }

  // ------------------------------------------------------------ helpers

  private void start() throws Exception {
    servers = SimServers.start(new SimServers.Ports(0, 0, -1), o -> {}, p -> {}, l -> {});
    channel = ManagedChannelBuilder.forTarget(servers.pubsub().target()).usePlaintext().build();
  }

  private void awaitOpen(String topic) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> servers.pubsub().openStreams(topic) == 1);
  }

  /** A real Subscribe call on the sim's plaintext port, authenticated with an org token. */
  private Call subscribe(String topic, ReplayPreset preset, byte[] replayId) {
    SimOrg org = servers.org();
    Metadata md = new Metadata();
    md.put(Metadata.Key.of("accesstoken", Metadata.ASCII_STRING_MARSHALLER), org.issueToken());
    md.put(Metadata.Key.of("instanceurl", Metadata.ASCII_STRING_MARSHALLER), org.instanceUrl());
    md.put(Metadata.Key.of("tenantid", Metadata.ASCII_STRING_MARSHALLER), org.orgId());
    PubSubGrpc.PubSubStub stub =
        PubSubGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
    Call call = new Call();
    StreamObserver<FetchRequest> requests = stub.subscribe(call);
    FetchRequest.Builder first =
        FetchRequest.newBuilder().setTopicName(topic).setReplayPreset(preset).setNumRequested(10);
    if (replayId != null) {
      first.setReplayId(com.google.protobuf.ByteString.copyFrom(replayId));
    }
    requests.onNext(first.build());
    return call;
  }

  /** The client side of one Subscribe call. */
  private static final class Call implements StreamObserver<FetchResponse> {
    final java.util.concurrent.LinkedBlockingQueue<FetchResponse> responses =
        new java.util.concurrent.LinkedBlockingQueue<>();
    final CompletableFuture<Status> end = new CompletableFuture<>();
    volatile Metadata trailers = new Metadata();

    @Override
    public void onNext(FetchResponse value) {
      responses.add(value);
    }

    @Override
    public void onError(Throwable t) {
      Metadata m = Status.trailersFromThrowable(t);
      if (m != null) {
        trailers = m;
      }
      end.complete(Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      end.complete(Status.OK);
    }
  }
}
