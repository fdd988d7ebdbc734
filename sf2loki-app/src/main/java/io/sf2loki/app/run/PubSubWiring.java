package io.sf2loki.app.run;

import io.sf2loki.app.config.PubSubConfig;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.pubsub.DiscardedReplayIds;
import io.sf2loki.salesforce.pubsub.GrpcSchemaFetcher;
import io.sf2loki.salesforce.pubsub.PubSubChannels;
import io.sf2loki.salesforce.pubsub.PubSubCredentials;
import io.sf2loki.salesforce.pubsub.PubSubReaderSettings;
import io.sf2loki.salesforce.pubsub.PubSubSource;
import io.sf2loki.salesforce.pubsub.PubSubSourceSettings;
import io.sf2loki.salesforce.pubsub.ReplayCommitTimes;
import io.sf2loki.salesforce.pubsub.SchemaCache;
import io.sf2loki.salesforce.pubsub.TopicReaders;
import io.sf2loki.salesforce.pubsub.TopicRunner;
import io.sf2loki.salesforce.pubsub.UndecodableTopics;
import io.sf2loki.salesforce.source.SourceTransforms;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The Pub/Sub source of one org (SPEC PS): the process-lifetime parts — the gRPC channel (PS-1,
 * built lazily by the first RPC, closed at shutdown), the schema cache (PS-4), the registry of
 * discarded replay ids (PS-15) — and a factory for the per-term {@link PubSubSource} (PIPE-20: a
 * source instance, its bridge and its credit counters are never reused across terms).
 */
final class PubSubWiring implements AutoCloseable {
  private final OrgClients org;
  private final Sf2lokiMetrics metrics;
  private final UndecodableTopics undecodable;
  private final TimeSource time;
  private final ProgressWatch watch;
  private final PubSubChannels channels;
  private final PubSubCredentials credentials;
  private final SchemaCache schemas;
  private final DiscardedReplayIds discarded = new DiscardedReplayIds();
  private final ReplayCommitTimes commitTimes;
  private final PubSubReaderSettings readerSettings;
  private final PubSubSourceSettings sourceSettings;
  private final SourceTransforms transforms;
  private final Executor cpu;

  /**
   * @param org the org's process-lifetime Salesforce clients
   * @param watch FEAT-21: each topic reader registers as {@code topic <name>}
   * @param transforms the compiled {@code sources.pubsub.transforms} (XF-1)
   * @param cpu the CPU pool that decodes, transforms and shapes events (PIPE-26)
   */
  PubSubWiring(
      OrgClients org,
      Sf2lokiMetrics metrics,
      UndecodableTopics undecodable,
      TimeSource time,
      ProgressWatch watch,
      SourceTransforms transforms,
      Executor cpu) {
    this.transforms = transforms;
    this.cpu = cpu;
    this.org = org;
    this.watch = watch;
    this.metrics = metrics;
    this.undecodable = undecodable;
    this.time = time;
    this.commitTimes = new ReplayCommitTimes(time.wall());
    PubSubConfig ps = org.org.sources().pubsub();
    this.channels = new PubSubChannels(Map.of("", ps.channel()));
    this.credentials = PubSubCredentials.of(org.tokens, org.orgIds);
    this.readerSettings = ps.reader();
    this.schemas =
        new SchemaCache(
            new GrpcSchemaFetcher(
                channels.channel(""), credentials, readerSettings.schemaDeadline()));
    this.sourceSettings = ps.source();
  }

  /**
   * A fresh source for one term.
   *
   * @param store the checkpoint store
   * @param ownership the term's SRC-24 registry of this org
   * @param reporter where each topic's stream results go (FEAT-3)
   */
  Source newSource(CheckpointStore store, OrgOwnership ownership, PollReporter reporter) {
    TopicReaders readers =
        new TopicReaders(
            readerSettings,
            channels.channel(""),
            credentials,
            schemas,
            store,
            discarded,
            commitTimes,
            undecodable,
            metrics,
            time,
            org.rest::serverNow);
    readers.reportTo(reporter).shapeOn(transforms, cpu);
    return new PubSubSource(
        sourceSettings,
        watched(watch, readers::run),
        PubSubSource.SObjectLister.over(org.rest),
        ownership,
        time);
  }

  /**
   * {@code runner} with each topic's reader registered on {@code watch} as {@code topic <topic>}
   * for its run, on the reader's thread (FEAT-21).
   */
  static TopicRunner watched(ProgressWatch watch, TopicRunner runner) {
    return (topic, bridge, stop) -> {
      try (ProgressWatch.Beat beat = watch.register("topic " + topic)) {
        runner.run(topic, bridge, stop);
      }
    };
  }

  /** The commit listener that dates committed replay ids (PS-15 age); process lifetime. */
  ReplayCommitTimes commitTimes() {
    return commitTimes;
  }

  @Override
  public void close() {
    channels.close();
  }
}
