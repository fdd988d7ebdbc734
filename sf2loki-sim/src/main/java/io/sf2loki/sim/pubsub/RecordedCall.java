package io.sf2loki.sim.pubsub;

import java.time.Instant;
import java.util.Map;

/**
 * One RPC received by {@link SimPubSub}, recorded before authentication (so refused calls are
 * included).
 *
 * @param method bare gRPC method name: {@code Subscribe}, {@code GetSchema}, {@code GetTopic}, ...
 * @param metadata the ASCII request metadata (lowercase keys; the last value of repeated keys),
 *     e.g. {@code accesstoken}, {@code instanceurl}, {@code tenantid}, {@code x-client-trace-id}
 *     (PS-2)
 * @param at simulator clock when received
 */
public record RecordedCall(String method, Map<String, String> metadata, Instant at) {}
