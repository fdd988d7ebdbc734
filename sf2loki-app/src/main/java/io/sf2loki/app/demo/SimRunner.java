package io.sf2loki.app.demo;

import io.grpc.Status;
import io.sf2loki.app.cli.SimOptions;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import io.sf2loki.sim.pubsub.SimServers;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code sf2loki sim} (SPEC FEAT-18): serves the simulated org — OAuth (client credentials),
 * REST/SOQL, EventLogFile listing and download, and the Pub/Sub gRPC API (plaintext) — and an
 * optional Loki-compatible receiver on fixed loopback ports until stopped, generating activity at
 * {@code --rate} and injecting the faults of {@code --fault-profile}. Prints a configuration that
 * points sf2loki at it.
 */
public final class SimRunner {
  /** OAuth client id the simulated org accepts (client credentials flow). */
  public static final String CLIENT_ID = "sim-client-id";

  /** OAuth client secret the simulated org accepts. */
  public static final String CLIENT_SECRET = "sim-client-secret";

  /** Period of the fault injector (real time). */
  static final Duration FAULT_PERIOD = Duration.ofSeconds(30);

  private static final List<String> ELF_TYPES = List.of("Login", "API", "URI");

  private final PrintStream out;

  public SimRunner(PrintStream out) {
    this.out = out;
  }

  /**
   * Starts the servers, prints where they listen and a matching configuration, and blocks until
   * {@code stop} fires.
   *
   * @return 0 after a clean stop
   * @throws IOException when a port cannot be bound
   * @throws InterruptedException if interrupted while serving
   */
  public int run(SimOptions options, StopSignal stop) throws IOException, InterruptedException {
    SimOptions.FaultProfile profile = options.faultProfile();
    SimServers.Ports ports =
        new SimServers.Ports(options.restPort(), options.grpcPort(), options.lokiPort().orElse(-1));
    try (SimServers servers =
            SimServers.start(
                ports,
                o -> {
                  o.clientId(CLIENT_ID).clientSecret(CLIENT_SECRET);
                  if (profile == SimOptions.FaultProfile.AUTH_EXPIRY) {
                    o.tokenTtl(Duration.ofMinutes(1));
                  }
                },
                p -> p.keepaliveInterval(Duration.ofSeconds(30)),
                l -> {});
        ScheduledExecutorService faults =
            Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("sim-fault-injector").factory())) {
      fillEventLogFiles(servers.org(), options.rate(), Instant.now());
      List<String> topics = servers.pubsub().topics();
      int perTopic = Math.max(1, options.rate() / Math.max(1, topics.size()));
      servers.generateEvery(Duration.ofSeconds(1), perTopic);
      if (profile != SimOptions.FaultProfile.NONE
          && profile != SimOptions.FaultProfile.AUTH_EXPIRY) {
        long ms = FAULT_PERIOD.toMillis();
        faults.scheduleAtFixedRate(() -> inject(profile, servers), ms, ms, TimeUnit.MILLISECONDS);
      }
      printBanner(servers, options, perTopic * topics.size());
      stop.await();
      out.println("sf2loki sim: stopped");
      return 0;
    }
  }

  /** One round of the profile's faults (every {@link #FAULT_PERIOD}). */
  static void inject(SimOptions.FaultProfile profile, SimServers servers) {
    SimOrg org = servers.org();
    SimPubSub ps = servers.pubsub();
    switch (profile) {
      case RATE_LIMIT ->
          org.faults()
              .add(
                  SimEndpoint.QUERY,
                  Fault.salesforceError(
                      403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."));
      case SERVER_ERRORS -> {
        org.faults().add(SimEndpoint.QUERY, Fault.status(503));
        ps.topics().forEach(t -> ps.faults().dropStreamAfter(t, 5));
      }
      case STREAM_STALLS -> {
        String t = ps.topics().getFirst();
        if (ps.faults().isSilent(t)) {
          ps.faults().unsilence(t);
        } else {
          ps.faults().silence(t);
        }
      }
      case REPLAYID_CORRUPTED ->
          ps.topics()
              .forEach(
                  t ->
                      ps.faults()
                          .failNextSubscribe(
                              t, Status.Code.INVALID_ARGUMENT, SimPubSub.REPLAY_CORRUPTED));
      case NONE, AUTH_EXPIRY -> {}
    }
  }

  /** Two Hourly EventLogFiles per type for the hours before now, {@code rows} rows each. */
  static void fillEventLogFiles(SimOrg org, int rows, Instant now) {
    Instant hour = now.truncatedTo(ChronoUnit.HOURS);
    long seed = 7;
    for (String type : ELF_TYPES) {
      for (int h = 3; h >= 2; h--) {
        Instant logDate = hour.minus(Duration.ofHours(h));
        org.addGeneratedLogFile(
            type, "Hourly", logDate, logDate.plus(Duration.ofMinutes(70)), rows, seed++);
      }
    }
  }

  private void printBanner(SimServers servers, SimOptions options, int eventsPerSecond) {
    SimOrg org = servers.org();
    out.printf("sf2loki sim: simulated org %s (org id %s)%n", org.instanceUrl(), org.orgId());
    out.printf(
        "  Pub/Sub API (plaintext gRPC): %s, topics %s, about %d events/s%n",
        servers.pubsub().target(), servers.pubsub().topics(), eventsPerSecond);
    out.printf("  EventLogFile types %s, %d rows per hourly file%n", ELF_TYPES, options.rate());
    if (servers.loki() != null) {
      out.printf("  Loki receiver: %s%n", servers.loki().pushUrl());
    }
    out.printf("  fault profile: %s%n", options.faultProfile().cliName());
    out.println();
    out.println("configuration for sf2loki against it:");
    out.println(config(servers));
    out.println("stop with Ctrl-C (SIGINT) or SIGTERM.");
    out.flush();
  }

  /** A configuration pointing sf2loki at the running servers (client credentials). */
  static String config(SimServers servers) {
    String push =
        servers.loki() != null
            ? servers.loki().pushUrl()
            : "http://127.0.0.1:3100/loki/api/v1/push";
    return """
        salesforce:
          auth_mode: client_credentials
          login_url: "%s"
          client_id: "%s"
          client_secret: "%s"
        sources:
          allow_overlap: true
          pubsub:
            endpoint: "%s"
            tls: false
            topics: %s
          eventlogfile:
            enabled: true
            interval: Hourly
            event_types: [Login, API, URI]
        sink:
          loki:
            url: "%s"
        state:
          file:
            path: ./sf2loki-sim-state.json
        """
        .formatted(
            servers.org().instanceUrl(),
            CLIENT_ID,
            CLIENT_SECRET,
            servers.pubsub().target(),
            servers.pubsub().topics().stream().map(t -> "\"" + t + "\"").toList(),
            push);
  }
}
