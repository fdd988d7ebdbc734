package io.sf2loki.sim.pubsub;

import io.grpc.Status;
import java.time.Duration;
import java.time.InstantSource;
import java.util.function.Predicate;

/**
 * What every {@link SimSubscription} of one {@link SimPubSub} shares.
 *
 * @param clock keepalive due times and retention
 * @param keepaliveInterval a stream idle this long gets a keepalive (PS-7)
 * @param retention events stored longer ago are evicted
 * @param invalidReplayStatus status of a rejected CUSTOM replay id
 * @param tokenValidator whether a stream's access token is still valid
 * @param faults the fault schedule
 * @param registry the topics
 * @param streams the open streams (a stream adds itself once it named its topic)
 */
record StreamContext(
    InstantSource clock,
    Duration keepaliveInterval,
    Duration retention,
    Status.Code invalidReplayStatus,
    Predicate<String> tokenValidator,
    PubSubFaults faults,
    TopicRegistry registry,
    OpenStreams streams) {}
