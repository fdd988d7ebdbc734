package io.sf2loki.salesforce.pubsub;

import io.grpc.Channel;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.salesforce.source.SourceTransforms;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.random.RandomGenerator;

/**
 * The production {@link TopicRunner} (SPEC PS-2…PS-16): holds one org's process- or term-scoped
 * dependencies and runs a fresh {@link TopicReader} per {@link #run} call. Thread-safe: each call
 * builds its own reader (its own backoff, position and PS-10 fallback time).
 */
public final class TopicReaders implements TopicRunner {
  private final PubSubReaderSettings settings;
  private final Channel channel;
  private final PubSubCredentials credentials;
  private final SchemaCache schemas;
  private final DiscardedReplayIds discarded;
  private final ReplayCommitTimes commitTimes;
  private final UndecodableTopics undecodable;
  private final InstantSource serverNow;
  private final SourceContext context;
  private volatile PollReporter reporter = PollReporter.NONE;
  private volatile SourceTransforms transforms = SourceTransforms.NONE;
  private volatile Executor cpu = Runnable::run;

  /**
   * @param settings the org's reader settings ({@link PubSubReaderSettings#defaults})
   * @param channel the org's Pub/Sub channel (PS-1; process lifetime)
   * @param credentials token provider + org id ({@link PubSubCredentials#of})
   * @param schemas the process-lifetime schema cache, normally {@code new SchemaCache(new
   *     GrpcSchemaFetcher(channel, credentials, settings.schemaDeadline()))}
   * @param discarded the process-lifetime PS-15 registry (one per org or process)
   * @param commitTimes the process-lifetime commit times that give the age of a rejected replay id
   *     (PS-15); register it as a commit listener of every term's pipeline
   * @param undecodable the process-lifetime PS-6 readiness registry
   * @param serverNow the org's server-now clock (SRC-20), e.g. {@code rest::serverNow}
   * @param context wall clock, monotonic ticker (watchdog, backoff) and stop-aware sleeper, the
   *     metrics and the stored replay ids as the source sees them (org-prefixed view in multi-org);
   *     the CPU pool and the gate are unused
   */
  public TopicReaders(
      PubSubReaderSettings settings,
      Channel channel,
      PubSubCredentials credentials,
      SchemaCache schemas,
      DiscardedReplayIds discarded,
      ReplayCommitTimes commitTimes,
      UndecodableTopics undecodable,
      InstantSource serverNow,
      SourceContext context) {
    this.commitTimes = Objects.requireNonNull(commitTimes, "commitTimes");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.schemas = Objects.requireNonNull(schemas, "schemas");
    this.discarded = Objects.requireNonNull(discarded, "discarded");
    this.undecodable = Objects.requireNonNull(undecodable, "undecodable");
    this.serverNow = Objects.requireNonNull(serverNow, "serverNow");
    this.context = Objects.requireNonNull(context, "context");
  }

  /**
   * Reports every reader's stream results to {@code r} (FEAT-3, OBS-35), keyed by {@code
   * pubsub:<topic>}. Call before the readers run.
   *
   * @return this
   */
  public TopicReaders reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
    return this;
  }

  /**
   * Every reader applies {@code t} to each decoded event before sampling (XF-1) and runs the
   * decode, the transforms and the shaping on {@code cpu} (PIPE-26); without this call they run on
   * the reader's thread with no transforms. Call before the readers run.
   *
   * @param t the compiled {@code sources.pubsub.transforms}
   * @param cpu the process's CPU pool
   * @return this
   */
  public TopicReaders shapeOn(SourceTransforms t, Executor cpu) {
    this.transforms = Objects.requireNonNull(t, "transforms");
    this.cpu = Objects.requireNonNull(cpu, "cpu");
    return this;
  }

  @Override
  public void run(String topic, BridgeWriter bridge, StopSignal stop) throws InterruptedException {
    new TopicReader(
            topic,
            bridge,
            stop,
            settings,
            channel,
            credentials,
            schemas,
            context.cursors(),
            discarded,
            commitTimes,
            undecodable,
            context.metrics(),
            context.time(),
            serverNow,
            RandomGenerator.of("L64X128MixRandom"),
            transforms,
            cpu)
        .reportTo(reporter)
        .run();
  }
}
