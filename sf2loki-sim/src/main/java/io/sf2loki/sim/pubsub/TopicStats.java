package io.sf2loki.sim.pubsub;

/**
 * Counters of one simulated topic since the simulator started (all subscriptions together).
 *
 * @param topic topic name
 * @param maxOutstanding the largest number of events ever requested but not yet delivered on one
 *     subscription of this topic, observed after each {@code FetchRequest} (PS-3: a client never
 *     lets it exceed its {@code num_requested})
 * @param delivered events delivered in {@code FetchResponse}s
 * @param fetchRequests {@code FetchRequest}s received naming or continuing this topic
 * @param subscribes {@code Subscribe} calls that reached this topic (first request received)
 * @param keepalives empty keepalive responses sent (PS-7)
 */
public record TopicStats(
    String topic,
    long maxOutstanding,
    long delivered,
    long fetchRequests,
    long subscribes,
    long keepalives) {}
