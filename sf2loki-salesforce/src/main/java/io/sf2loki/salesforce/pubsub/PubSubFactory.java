package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.spi.Source;
import io.sf2loki.salesforce.source.OrgTerm;
import io.sf2loki.salesforce.source.SalesforceOrg;
import io.sf2loki.salesforce.source.SourceFactory;
import io.sf2loki.salesforce.source.SourceTransforms;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code pubsub} kind of one org (SPEC PS): holds the process-lifetime parts — the gRPC channel
 * (PS-1, built lazily by the first RPC, closed by {@link #close()}), the schema cache (PS-4), the
 * registry of discarded replay ids (PS-15), the commit times that date replay ids (PS-15) and the
 * undecodable-topic registry (PS-6 readiness) — and builds a fresh {@link PubSubSource} per term
 * (PIPE-20: a source instance, its bridge and its credit counters are never reused across terms).
 * Enabled only with at least one configured topic; disabled, it builds no channel and no source.
 */
public final class PubSubFactory implements SourceFactory {
  private final PubSubSourceSettings sourceSettings;
  private final PubSubReaderSettings readerSettings;
  private final SalesforceOrg org;
  private final ProgressWatch watch;
  private final SourceTransforms transforms;
  private final UndecodableTopics undecodable = new UndecodableTopics();
  private final DiscardedReplayIds discarded = new DiscardedReplayIds();
  private final ReplayCommitTimes commitTimes;
  private final PubSubChannels channels; // null when disabled
  private final PubSubCredentials credentials;
  private final SchemaCache schemas;

  /**
   * Builds the process-lifetime parts (no network call) when enabled.
   *
   * @param enabled {@code sources.pubsub.enabled}; the kind is also off without topics
   * @param channel {@code endpoint} and {@code tls} with the PS-1 channel defaults
   * @param source the org's source settings (topics, filter, discovery, bridge size)
   * @param reader the org's reader settings
   * @param org the org's process-lifetime clients (tokens and org id for PS-2, lister, server now)
   * @param wall wall clock dating committed replay ids
   * @param watch FEAT-21: each topic reader registers as {@code topic <name>}
   * @param transforms the compiled {@code sources.pubsub.transforms} (XF-1), run with the decoding
   *     and shaping on the term's CPU pool (PIPE-26)
   */
  public PubSubFactory(
      boolean enabled,
      PubSubChannels.Settings channel,
      PubSubSourceSettings source,
      PubSubReaderSettings reader,
      SalesforceOrg org,
      InstantSource wall,
      ProgressWatch watch,
      SourceTransforms transforms) {
    this.transforms = Objects.requireNonNull(transforms, "transforms");
    this.sourceSettings = Objects.requireNonNull(source, "source");
    this.readerSettings = Objects.requireNonNull(reader, "reader");
    this.org = Objects.requireNonNull(org, "org");
    this.watch = Objects.requireNonNull(watch, "watch");
    this.commitTimes = new ReplayCommitTimes(wall);
    if (enabled && !source.topics().isEmpty()) {
      this.channels = new PubSubChannels(Map.of("", channel));
      this.credentials = PubSubCredentials.of(org.tokens(), org.orgIds());
      this.schemas =
          new SchemaCache(
              new GrpcSchemaFetcher(channels.channel(""), credentials, reader.schemaDeadline()));
    } else {
      this.channels = null;
      this.credentials = null;
      this.schemas = null;
    }
  }

  @Override
  public List<Source> create(OrgTerm term) {
    if (channels == null) {
      return List.of();
    }
    TopicReaders readers =
        new TopicReaders(
            readerSettings,
            channels.channel(""),
            credentials,
            schemas,
            discarded,
            commitTimes,
            undecodable,
            org.rest()::serverNow,
            term.context());
    // decode, transforms (XF-1) and shaping on the CPU pool (PIPE-26)
    readers.reportTo(term.reporter()).shapeOn(transforms, term.context().cpu());
    return List.of(
        new PubSubSource(
            sourceSettings,
            watched(watch, readers::run),
            PubSubSource.SObjectLister.over(org.rest()),
            term.ownership(),
            term.context().time()));
  }

  /**
   * {@code runner} with each topic's reader registered on {@code watch} as {@code topic <topic>}
   * for its run, on the reader's thread (FEAT-21).
   */
  public static TopicRunner watched(ProgressWatch watch, TopicRunner runner) {
    return (topic, bridge, stop) -> {
      try (ProgressWatch.Beat beat = watch.register("topic " + topic)) {
        runner.run(topic, bridge, stop);
      }
    };
  }

  /** Dates committed replay ids (PS-15 age); a no-op while disabled. */
  @Override
  public CommitListener commitListener() {
    return channels == null ? CommitListener.none() : commitTimes;
  }

  /** PS-6: a topic held on an undecodable event, first in name order. */
  @Override
  public Optional<String> degradation() {
    return undecodable.degradation();
  }

  @Override
  public void close() {
    if (channels != null) {
      channels.close();
    }
  }
}
