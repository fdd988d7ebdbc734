package io.sf2loki.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sf2loki.sim.loki.LokiLabels;
import io.sf2loki.sim.loki.LokiPushDecoder;
import io.sf2loki.sim.loki.PushedEntry;
import io.sf2loki.sim.loki.PushedStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Loki-push-compatible receiver of {@link OrgIsolation}: {@code POST /loki/api/v1/push} (any
 * encoding {@link LokiPushDecoder} reads) → 204, recording for every entry the {@link
 * System#nanoTime()} at which its request arrived, keyed {@code <org label>|<event_identifier
 * metadata>} (the event's {@code EventIdentifier}, a UUID unique across both simulated orgs, so an
 * event shipped under the other org's label is never matched; first arrival kept, later ones count
 * as duplicates). It also counts entries whose {@code sf_org_id} label is not the one expected for
 * their {@code org} label. The publisher runs in the same JVM, so publish and receive instants
 * share one clock.
 */
final class OrgLatencyReceiver implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, String> orgIds;
  private final ConcurrentHashMap<String, Long> firstSeen = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, AtomicLong> perOrg = new ConcurrentHashMap<>();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong wrongOrgId = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();

  private OrgLatencyReceiver(HttpServer server, Map<String, String> orgIds) {
    this.server = server;
    this.orgIds = Map.copyOf(orgIds);
  }

  /**
   * Starts on an ephemeral loopback port.
   *
   * @param orgIds {@code org} label → the {@code sf_org_id} every entry of that org must carry
   */
  static OrgLatencyReceiver start(Map<String, String> orgIds) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
    OrgLatencyReceiver r = new OrgLatencyReceiver(server, orgIds);
    server.setExecutor(r.executor);
    server.createContext("/loki/api/v1/push", r::push);
    server.start();
    return r;
  }

  String pushUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/loki/api/v1/push";
  }

  /** The key an entry is recorded under. */
  static String key(String org, String eventIdentifier) {
    return org + "|" + eventIdentifier;
  }

  /** Arrival ({@link System#nanoTime()}) of the first entry recorded under {@code key}, or null. */
  Long arrival(String key) {
    return firstSeen.get(key);
  }

  /** Distinct entries received with label {@code org}. */
  long received(String org) {
    AtomicLong n = perOrg.get(org);
    return n == null ? 0 : n.get();
  }

  /** Distinct entries received under any key. */
  long distinct() {
    return firstSeen.size();
  }

  long duplicates() {
    return duplicates.get();
  }

  /** Entries whose {@code sf_org_id} differs from the one expected for their {@code org}. */
  long wrongOrgId() {
    return wrongOrgId.get();
  }

  /** Push bodies that did not decode (answered 400). */
  long malformed() {
    return malformed.get();
  }

  private void push(HttpExchange ex) throws IOException {
    long now = System.nanoTime();
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readAllBytes();
    }
    try {
      List<PushedStream> streams =
          LokiPushDecoder.decode(
              body,
              ex.getRequestHeaders().getFirst("Content-Type"),
              ex.getRequestHeaders().getFirst("Content-Encoding"));
      for (PushedStream s : streams) {
        record(s, now);
      }
      ex.sendResponseHeaders(204, -1);
    } catch (LokiPushDecoder.MalformedPushException
        | LokiLabels.LabelParseException
        | LokiLabels.DuplicateLabelException e) {
      malformed.incrementAndGet();
      ex.sendResponseHeaders(400, -1);
    } finally {
      ex.close();
    }
  }

  private void record(PushedStream s, long now)
      throws LokiLabels.LabelParseException, LokiLabels.DuplicateLabelException {
    Map<String, String> labels = LokiLabels.parse(s.labels());
    String org = labels.getOrDefault("org", "");
    boolean idMatches = labels.getOrDefault("sf_org_id", "").equals(orgIds.get(org));
    for (PushedEntry e : s.entries()) {
      if (!idMatches) {
        wrongOrgId.incrementAndGet();
      }
      String k = key(org, e.structuredMetadata().getOrDefault("event_identifier", ""));
      if (firstSeen.putIfAbsent(k, now) == null) {
        perOrg.computeIfAbsent(org, o -> new AtomicLong()).incrementAndGet();
      } else {
        duplicates.incrementAndGet();
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.close();
  }
}
