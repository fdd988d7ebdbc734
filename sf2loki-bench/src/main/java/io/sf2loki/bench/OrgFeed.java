package io.sf2loki.bench;

import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.PublishedEvent;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.io.IOException;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One simulated org of {@link OrgIsolation}: a {@link SimOrg} (OAuth JWT flow, its own org id) and
 * a {@link SimPubSub} authenticating against it, plus the publish instant ({@link
 * System#nanoTime()}, taken just before the event became available) of every event published on
 * {@link #topic}, keyed as {@link OrgLatencyReceiver#key} keys it.
 */
final class OrgFeed implements AutoCloseable {
  /** Salesforce's answer to a refused JWT grant (the token endpoint's OAuth error body). */
  static final Fault TOKEN_FAILURE =
      Fault.salesforceError(400, "invalid_grant", "authentication failure").untilCleared();

  final String name;
  final String topic;
  final SimOrg org;
  final SimPubSub pubsub;
  private final ConcurrentHashMap<String, Long> published = new ConcurrentHashMap<>();
  private long publishedCount; // publisher thread only

  private OrgFeed(String name, String topic, SimOrg org, SimPubSub pubsub) {
    this.name = name;
    this.topic = topic;
    this.org = org;
    this.pubsub = pubsub;
  }

  /**
   * Starts the org and its Pub/Sub API on ephemeral loopback ports.
   *
   * @param name the {@code orgs[].name} (label {@code org})
   * @param orgId the org's 18-character id (label {@code sf_org_id})
   */
  static OrgFeed start(String name, String orgId, RSAPublicKey jwtKey, String topic)
      throws IOException {
    SimOrg org = SimOrg.builder().jwtPublicKey(jwtKey).orgId(orgId).start();
    try {
      SimPubSub pubsub = SimPubSub.builder().org(org).port(0).seed(orgId.hashCode()).start();
      return new OrgFeed(name, topic, org, pubsub);
    } catch (IOException | RuntimeException e) {
      org.close();
      throw e;
    }
  }

  /**
   * Publishes up to {@code target} events in total (publisher thread only).
   *
   * @return events published by this call
   */
  int publishUpTo(long target) {
    int n = (int) Math.min(10_000, target - publishedCount);
    if (n <= 0) {
      return 0;
    }
    long t = System.nanoTime();
    for (PublishedEvent e : pubsub.publish(topic, n)) {
      if (!(e.fields().get("EventIdentifier") instanceof String id)) {
        throw new IllegalStateException(topic + " events carry no EventIdentifier");
      }
      published.put(OrgLatencyReceiver.key(name, id), t);
    }
    publishedCount += n;
    return n;
  }

  /** Events published so far. */
  long publishedCount() {
    return published.size();
  }

  /**
   * The events published in {@code [fromNanos, toNanos)} ({@link System#nanoTime()}), each as
   * {@code {publish instant, arrival instant at rx or -1 when it never arrived}}.
   */
  List<long[]> latencies(OrgLatencyReceiver rx, long fromNanos, long toNanos) {
    List<long[]> out = new ArrayList<>();
    published.forEach(
        (k, t) -> {
          if (t >= fromNanos && t < toNanos) {
            Long arrived = rx.arrival(k);
            out.add(new long[] {t, arrived == null ? -1 : arrived});
          }
        });
    return out;
  }

  /** Published events the receiver never got. */
  long lost(OrgLatencyReceiver rx) {
    return published.keySet().stream().filter(k -> rx.arrival(k) == null).count();
  }

  /** The token endpoint answers {@link #TOKEN_FAILURE} and every issued token is revoked. */
  void failTokenEndpoint() {
    org.faults().add(SimEndpoint.TOKEN, TOKEN_FAILURE);
    org.expireAllTokens(); // open Pub/Sub streams end UNAUTHENTICATED; the refresh then fails
  }

  void healTokenEndpoint() {
    org.faults().clear(SimEndpoint.TOKEN);
  }

  long tokenCalls() {
    return org.callCount(SimEndpoint.TOKEN);
  }

  @Override
  public void close() {
    pubsub.close();
    org.close();
  }
}
