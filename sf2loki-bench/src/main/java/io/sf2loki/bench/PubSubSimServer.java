package io.sf2loki.bench;

import io.sf2loki.sim.pubsub.PublishedEvent;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The simulated Pub/Sub API of {@link PubSubEndToEnd}, run in its own JVM so that the harness
 * measures the client's heap, RSS and CPU only (the simulator keeps every published event and its
 * decoded fields in memory).
 *
 * <p>Starts {@link SimPubSub} on an ephemeral loopback port (plaintext gRPC over Netty, no token
 * check, no background keepalive ticker), publishes {@code --events N} generated events split
 * evenly over {@code --topics t1,t2,...}, prints one line {@code READY <port> <events> <payload
 * bytes>} on stdout and serves until stdin reaches end of file.
 */
public final class PubSubSimServer {
  /** {@code tenantid} the simulator expects. */
  static final String ORG_ID = "00D000000000001EAA";

  /** {@code instanceurl} the simulator expects. */
  static final String INSTANCE_URL = "https://bench.my.salesforce.com";

  private PubSubSimServer() {}

  public static void main(String[] args) throws IOException {
    int events = 300_000;
    List<String> topics =
        List.of(SimPubSub.LOGIN_TOPIC, SimPubSub.API_ANOMALY_TOPIC, SimPubSub.ACCOUNT_CDC_TOPIC);
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--events" -> events = Integer.parseInt(args[i + 1]);
        case "--topics" -> topics = Arrays.asList(args[i + 1].split(","));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    try (SimPubSub sim =
        SimPubSub.builder()
            .port(0)
            .auth(ORG_ID, INSTANCE_URL, token -> true)
            .manualKeepalives()
            .start()) {
      long payloadBytes = 0;
      int published = 0;
      List<Integer> perTopic = new ArrayList<>();
      for (int t = 0; t < topics.size(); t++) {
        int n = events / topics.size() + (t < events % topics.size() ? 1 : 0);
        perTopic.add(n);
        for (int done = 0; done < n; ) {
          int chunk = Math.min(10_000, n - done);
          for (PublishedEvent e : sim.publish(topics.get(t), chunk)) {
            payloadBytes += e.payload().length;
          }
          done += chunk;
          published += chunk;
        }
      }
      System.err.printf(
          Locale.ROOT,
          "SIM published %,d events %s over %s, %.1f MiB Avro payload%n",
          published,
          perTopic,
          topics,
          payloadBytes / 1048576.0);
      System.out.println("READY " + sim.port() + " " + published + " " + payloadBytes);
      System.out.flush();
      InputStream in = System.in;
      while (in.read() >= 0) {
        // serve until the harness closes our stdin (or dies)
      }
    }
  }
}
