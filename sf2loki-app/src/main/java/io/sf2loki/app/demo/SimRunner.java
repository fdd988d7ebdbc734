package io.sf2loki.app.demo;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.grpc.Status;
import io.sf2loki.app.cli.SimOptions;
import io.sf2loki.app.logging.LogSetup;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import io.sf2loki.sim.pubsub.SimServers;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sf2loki sim} (SPEC FEAT-18): serves the simulated org — OAuth (client credentials),
 * REST/SOQL, EventLogFile listing and download, the describe global used by {@code topics: ["*"]}
 * discovery, and the Pub/Sub gRPC API (plaintext) — and an optional Loki-compatible receiver on
 * fixed loopback ports until stopped, generating activity at {@code --rate} and injecting the
 * faults of {@code --fault-profile}.
 *
 * <p>Standard output carries only a YAML document: the banner as {@code #} comments and a
 * configuration that points sf2loki at the servers, so {@code sf2loki sim > sim.yaml} gives a
 * loadable file. The servers' logs go to standard error (the daemon keeps OBS-9's stdout).
 *
 * <p>Memory stays bounded in long runs: Pub/Sub events are retained {@link #PUBSUB_RETENTION}, the
 * receiver keeps the newest {@link #LOKI_HISTORY} entries and requests.
 */
public final class SimRunner {
  private static final Logger log = LoggerFactory.getLogger(SimRunner.class);

  /** OAuth client id the simulated org accepts (client credentials flow). */
  public static final String CLIENT_ID = "sim-client-id";

  /** OAuth client secret the simulated org accepts. */
  public static final String CLIENT_SECRET = "sim-client-secret";

  /**
   * Period of the fault injector (real time) for {@code rate-limit}, {@code server-errors} and
   * {@code replayid-corrupted}; also the delay before the first {@code stream-stalls} silence.
   */
  static final Duration FAULT_PERIOD = Duration.ofSeconds(30);

  /** {@code stream-stalls}: a silence of the first topic starts this often (real time). */
  static final Duration STALL_PERIOD = Duration.ofMinutes(10);

  /**
   * {@code stream-stalls}: each silence lasts this long, longer than the client's 300 s watchdog
   * (PS-8), so a stall is observed and the topic reconnects.
   */
  static final Duration STALL_DURATION = Duration.ofSeconds(330);

  /** Pub/Sub events older than this are evicted (EARLIEST replays at most this much). */
  static final Duration PUBSUB_RETENTION = Duration.ofHours(1);

  /** The Loki receiver keeps at most this many entries and requests (oldest dropped). */
  static final int LOKI_HISTORY = 100_000;

  private static final List<String> ELF_TYPES = List.of("Login", "API", "URI");

  private final PrintStream out;
  private final Runnable logSetup;

  /**
   * A runner printing the banner and configuration to {@code out} and reconfiguring the process's
   * logging to standard error (logfmt, INFO) when it starts.
   */
  public SimRunner(PrintStream out) {
    this(out, SimRunner::logToStderr);
  }

  /** A runner that calls {@code logSetup} (instead of logging to stderr) when it starts. */
  SimRunner(PrintStream out, Runnable logSetup) {
    this.out = out;
    this.logSetup = logSetup;
  }

  /** Process logging: logfmt at INFO on standard error, so stdout holds only the YAML. */
  static void logToStderr() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
      OutputStream err =
          new FilterOutputStream(System.err) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
              flush(); // never close the process's stderr when the appender stops
            }
          };
      LogSetup.configure(ctx, Level.INFO, LogSetup.Format.LOGFMT, err);
    }
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
    logSetup.run();
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
                p -> p.keepaliveInterval(Duration.ofSeconds(30)).retention(PUBSUB_RETENTION),
                l -> l.maxHistory(LOKI_HISTORY));
        ScheduledExecutorService faults =
            Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("sim-fault-injector").factory())) {
      fillEventLogFiles(servers.org(), options.rate(), Instant.now());
      List<String> topics = servers.pubsub().topics();
      int perTopic = Math.max(1, options.rate() / Math.max(1, topics.size()));
      servers.generateEvery(Duration.ofSeconds(1), perTopic);
      schedule(faults, profile, servers);
      printBanner(servers, options, perTopic * topics.size());
      stop.await();
      out.println("# sf2loki sim: stopped");
      out.flush();
      return 0;
    }
  }

  private static void schedule(
      ScheduledExecutorService faults, SimOptions.FaultProfile profile, SimServers servers) {
    long first = FAULT_PERIOD.toMillis();
    switch (profile) {
      case STREAM_STALLS ->
          faults.scheduleAtFixedRate(
              () -> {
                quietly(profile, () -> inject(profile, servers));
                faults.schedule(
                    () -> quietly(profile, () -> endStall(servers)),
                    STALL_DURATION.toMillis(),
                    TimeUnit.MILLISECONDS);
              },
              first,
              STALL_PERIOD.toMillis(),
              TimeUnit.MILLISECONDS);
      case RATE_LIMIT, SERVER_ERRORS, REPLAYID_CORRUPTED ->
          faults.scheduleAtFixedRate(
              () -> quietly(profile, () -> inject(profile, servers)),
              first,
              FAULT_PERIOD.toMillis(),
              TimeUnit.MILLISECONDS);
      case NONE, AUTH_EXPIRY -> {} // auth-expiry is the org's one-minute token TTL
    }
  }

  /** Runs a fault action; a failure is logged and does not end the periodic schedule. */
  private static void quietly(SimOptions.FaultProfile profile, Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      log.atWarn()
          .addKeyValue("fault_profile", profile.cliName())
          .addKeyValue("error", e.toString())
          .log("sim fault injection failed");
    }
  }

  /**
   * One round of the profile's faults, acting on the calls open now:
   *
   * <ul>
   *   <li>{@code rate-limit}: the next REST SOQL query ({@code /query}) answers 403 {@code
   *       REQUEST_LIMIT_EXCEEDED} (at most one pending; Pub/Sub and downloads are not affected).
   *   <li>{@code server-errors}: the next SOQL query answers 503 (at most one pending) and every
   *       open Subscribe call ends now with {@code UNAVAILABLE}.
   *   <li>{@code stream-stalls}: the first topic goes silent (no events, no keepalives) until
   *       {@link #endStall(SimServers)}.
   *   <li>{@code replayid-corrupted}: per topic with open calls, the next as many subscribes fail
   *       with {@code INVALID_ARGUMENT} and trailer {@value SimPubSub#REPLAY_CORRUPTED}, then the
   *       open calls end with {@code UNAVAILABLE}, so the client resubscribes with its stored id
   *       and gets the rejection (PS-15).
   * </ul>
   */
  static void inject(SimOptions.FaultProfile profile, SimServers servers) {
    SimOrg org = servers.org();
    SimPubSub ps = servers.pubsub();
    switch (profile) {
      case RATE_LIMIT -> {
        org.faults().clear(SimEndpoint.QUERY);
        org.faults()
            .add(
                SimEndpoint.QUERY,
                Fault.salesforceError(
                    403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."));
      }
      case SERVER_ERRORS -> {
        org.faults().clear(SimEndpoint.QUERY);
        org.faults().add(SimEndpoint.QUERY, Fault.status(503));
        ps.topics().forEach(t -> ps.faults().dropOpenStreams(t, Status.Code.UNAVAILABLE));
      }
      case STREAM_STALLS -> ps.faults().silence(ps.topics().getFirst());
      case REPLAYID_CORRUPTED -> {
        for (String t : ps.topics()) {
          int open = ps.openStreams(t);
          for (int i = 0; i < open; i++) { // queued first: the resubscribe may be immediate
            ps.faults()
                .failNextSubscribe(t, Status.Code.INVALID_ARGUMENT, SimPubSub.REPLAY_CORRUPTED);
          }
          if (open > 0) {
            ps.faults().dropOpenStreams(t, Status.Code.UNAVAILABLE);
          }
        }
      }
      case NONE, AUTH_EXPIRY -> {}
    }
    log.atInfo().addKeyValue("fault_profile", profile.cliName()).log("sim fault injected");
  }

  /** Ends the {@code stream-stalls} silence of the first topic (owed events flow at once). */
  static void endStall(SimServers servers) {
    SimPubSub ps = servers.pubsub();
    ps.faults().unsilence(ps.topics().getFirst());
    log.atInfo().log("sim stream stall ended");
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

  /** The banner as YAML comments, then the configuration: stdout is one YAML document. */
  private void printBanner(SimServers servers, SimOptions options, int eventsPerSecond) {
    SimOrg org = servers.org();
    out.printf("# sf2loki sim: simulated org %s (org id %s)%n", org.instanceUrl(), org.orgId());
    out.printf(
        "#   Pub/Sub API (plaintext gRPC): %s, topics %s, about %d events/s%n",
        servers.pubsub().target(), servers.pubsub().topics(), eventsPerSecond);
    out.printf("#   EventLogFile types %s, %d rows per hourly file%n", ELF_TYPES, options.rate());
    if (servers.loki() != null) {
      out.printf(
          "#   Loki receiver: %s (keeps the newest %d entries)%n",
          servers.loki().pushUrl(), LOKI_HISTORY);
    }
    out.printf("#   fault profile: %s%n", options.faultProfile().cliName());
    out.println("#   logs go to stderr; stop with Ctrl-C (SIGINT) or SIGTERM.");
    out.println("# configuration for sf2loki against it:");
    out.print(config(servers));
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
