package io.sf2loki.sim.pubsub;

import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.org.SimOrg;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulated org, its Pub/Sub API and a Loki receiver started together (e.g. on fixed ports by a
 * future {@code sf2loki sim} command, for people building dashboards). The Pub/Sub server checks
 * tokens against the org ({@link SimPubSub.Builder#org(SimOrg)}). {@link #close()} stops all three
 * and any generator.
 */
public final class SimServers implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SimServers.class);

  private final SimOrg org;
  private final SimPubSub pubsub;
  private final LokiReceiver loki;
  private ScheduledExecutorService generatorThread; // guarded by this

  /**
   * Ports to bind on 127.0.0.1 (0 = ephemeral).
   *
   * @param org HTTP port of the org (login URL and instance URL)
   * @param pubsub gRPC port of the Pub/Sub API (plaintext)
   * @param loki HTTP port of the Loki receiver; negative = no receiver
   */
  public record Ports(int org, int pubsub, int loki) {
    /** All ephemeral. */
    public static Ports ephemeral() {
      return new Ports(0, 0, 0);
    }
  }

  private SimServers(SimOrg org, SimPubSub pubsub, LokiReceiver loki) {
    this.org = org;
    this.pubsub = pubsub;
    this.loki = loki;
  }

  /** Starts the three servers with default settings on {@code ports}. */
  public static SimServers start(Ports ports) throws IOException {
    return start(ports, o -> {}, p -> {}, l -> {});
  }

  /**
   * Starts the three servers on {@code ports}; each customiser may change its builder (the port
   * and, for Pub/Sub, the org wiring are set afterwards and win).
   *
   * @throws IOException when a port cannot be bound (already started servers are closed)
   */
  public static SimServers start(
      Ports ports,
      Consumer<SimOrg.Builder> orgConfig,
      Consumer<SimPubSub.Builder> pubsubConfig,
      Consumer<LokiReceiver.Builder> lokiConfig)
      throws IOException {
    Objects.requireNonNull(ports);
    SimOrg.Builder ob = SimOrg.builder();
    orgConfig.accept(ob);
    SimOrg org = ob.port(ports.org()).start();
    SimPubSub pubsub = null;
    try {
      SimPubSub.Builder pb = SimPubSub.builder();
      pubsubConfig.accept(pb);
      pubsub = pb.org(org).port(ports.pubsub()).start();
      LokiReceiver loki = null;
      if (ports.loki() >= 0) {
        LokiReceiver.Builder lb = LokiReceiver.builder();
        lokiConfig.accept(lb);
        loki = lb.port(ports.loki()).start();
      }
      log.atInfo()
          .addKeyValue("org_url", org.instanceUrl())
          .addKeyValue("pubsub_endpoint", pubsub.target())
          .addKeyValue("loki_url", loki == null ? "none" : loki.url())
          .log("sim servers started");
      return new SimServers(org, pubsub, loki);
    } catch (IOException | RuntimeException e) {
      if (pubsub != null) {
        pubsub.close();
      }
      org.close();
      throw e;
    }
  }

  /** The simulated org. */
  public SimOrg org() {
    return org;
  }

  /** The simulated Pub/Sub API. */
  public SimPubSub pubsub() {
    return pubsub;
  }

  /** The Loki receiver, or null when started without one. */
  public LokiReceiver loki() {
    return loki;
  }

  /**
   * Publishes {@code eventsPerTopic} generated events on every Pub/Sub topic every {@code period}
   * (real time, first batch after one period) until {@link #close()}. Replaces an earlier
   * generator.
   */
  public synchronized void generateEvery(Duration period, int eventsPerTopic) {
    if (period.toMillis() < 1 || eventsPerTopic < 1) {
      throw new IllegalArgumentException("period must be >= 1 ms and eventsPerTopic >= 1");
    }
    stopGenerator();
    generatorThread =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("sim-pubsub-generator").factory());
    long ms = period.toMillis();
    generatorThread.scheduleAtFixedRate(
        () -> {
          try {
            for (String t : pubsub.topics()) {
              pubsub.publish(t, eventsPerTopic);
            }
          } catch (RuntimeException e) {
            log.atWarn().addKeyValue("error", e.toString()).log("sim event generation failed");
          }
        },
        ms,
        ms,
        TimeUnit.MILLISECONDS);
  }

  private void stopGenerator() {
    if (generatorThread != null) {
      generatorThread.shutdownNow();
      generatorThread = null;
    }
  }

  /** Stops the generator and the three servers. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      stopGenerator();
    }
    if (loki != null) {
      loki.close();
    }
    pubsub.close();
    org.close();
  }
}
