package io.sf2loki.salesforce.pubsub;

import io.grpc.Channel;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;

/**
 * What the parts of one topic reader share for the term (SPEC PS-2…PS-16): the topic, its settings,
 * the org's channel and credentials, the bridge, the reader's stop signal, metrics, time, the entry
 * shaper and the topic's metric attributes. Immutable.
 *
 * @param topic the topic, e.g. {@code /event/LoginEventStream}
 * @param settings the org's reader settings
 * @param channel the org's Pub/Sub channel (PS-1)
 * @param credentials token / org id for the PS-2 metadata
 * @param bridge the term's bridge (PS-17)
 * @param stop the reader's stop signal
 * @param metrics the instance's metrics
 * @param time ticker (watchdog, SRC-26), wall clock (gauges) and sleeper (backoff)
 * @param shaper renders the topic's entries
 * @param topicAttrs {@code topic}
 * @param progressAttrs {@code source=pubsub, object=<topic>} (OBS-14)
 */
record ReaderContext(
    String topic,
    PubSubReaderSettings settings,
    Channel channel,
    PubSubCredentials credentials,
    BridgeWriter bridge,
    StopSignal stop,
    Sf2lokiMetrics metrics,
    TimeSource time,
    PubSubEntryShaper shaper,
    Attributes topicAttrs,
    Attributes progressAttrs) {}
