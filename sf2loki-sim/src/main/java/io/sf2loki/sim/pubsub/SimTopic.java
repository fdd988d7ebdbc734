package io.sf2loki.sim.pubsub;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;

/**
 * One simulated topic: its current schema, its retained events in replay order (sequence numbers 1,
 * 2, … without gaps) and its counters. Thread-safe (all methods synchronize on the topic).
 */
final class SimTopic {
  final String name;
  final int prefix;
  private String schemaId;
  private Schema schema;
  // retained events are events[head..]; events[head] has sequence firstSeq
  private final List<PublishedEvent> events = new ArrayList<>();
  private int head;
  private long lastSeq;
  private long firstSeq = 1;
  private long maxOutstanding;
  private long delivered;
  private long fetchRequests;
  private long subscribes;
  private long keepalives;

  SimTopic(String name, int prefix, String schemaId, Schema schema) {
    this.name = name;
    this.prefix = prefix;
    this.schemaId = schemaId;
    this.schema = schema;
  }

  synchronized String schemaId() {
    return schemaId;
  }

  synchronized Schema schema() {
    return schema;
  }

  synchronized void setSchema(String id, Schema s) {
    this.schemaId = id;
    this.schema = s;
  }

  /** The replay id the next event will get (for building the stored event). */
  synchronized byte[] nextReplayId() {
    return ReplayIds.encode(prefix, lastSeq + 1);
  }

  synchronized void append(PublishedEvent e) {
    lastSeq++;
    events.add(e);
  }

  /** Evicts events stored before {@code now - retention}. */
  synchronized void evict(Instant now, Duration retention) {
    Instant cutoff = now.minus(retention);
    while (head < events.size() && events.get(head).publishedAt().isBefore(cutoff)) {
      events.set(head++, null);
      firstSeq++;
    }
    if (head > 1024 && head * 2 > events.size()) {
      events.subList(0, head).clear();
      head = 0;
    }
  }

  synchronized long lastSeq() {
    return lastSeq;
  }

  synchronized long firstSeq() {
    return firstSeq;
  }

  /**
   * True when a subscription may resume after {@code seq}: the newest id (also 0 before any event),
   * a retained event, or 0 while nothing was evicted.
   */
  synchronized boolean resumable(long seq) {
    return seq == lastSeq || (seq >= firstSeq && seq <= lastSeq) || (seq == 0 && firstSeq == 1);
  }

  /** Up to {@code max} retained events with sequence ≥ {@code fromSeq}, in replay order. */
  synchronized List<PublishedEvent> from(long fromSeq, int max) {
    long start = Math.max(fromSeq, firstSeq);
    List<PublishedEvent> out = new ArrayList<>();
    for (long seq = start; seq <= lastSeq && out.size() < max; seq++) {
      out.add(events.get(head + (int) (seq - firstSeq)));
    }
    return out;
  }

  synchronized List<PublishedEvent> retained() {
    return List.copyOf(events.subList(head, events.size()));
  }

  synchronized void countRequest(long outstanding) {
    fetchRequests++;
    maxOutstanding = Math.max(maxOutstanding, outstanding);
  }

  synchronized void countSubscribe() {
    subscribes++;
  }

  synchronized void countDelivered(int n) {
    delivered += n;
  }

  synchronized void countKeepalive() {
    keepalives++;
  }

  synchronized TopicStats stats() {
    return new TopicStats(name, maxOutstanding, delivered, fetchRequests, subscribes, keepalives);
  }
}
