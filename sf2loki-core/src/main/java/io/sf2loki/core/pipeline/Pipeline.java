package io.sf2loki.core.pipeline;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One term's pipeline (SPEC §9): sources grouped into lanes (PIPE-2; one per kind and Loki identity
 * group, PIPE-28), one bounded {@link LaneQueue} and one {@link LaneConsumer} per lane, one {@link
 * Committer}. Built fresh for every term (PIPE-20) and run once.
 *
 * <p>Threads: one virtual thread per source (producer) and one per lane consumer, all started,
 * stopped and joined by {@link #run(StopSignal)} (PIPE-23).
 */
public final class Pipeline {
  private static final Logger log = LoggerFactory.getLogger(Pipeline.class);

  /** Budget for joining threads after a grace cancellation (PIPE-13). */
  static final Duration CLOSER_BUDGET = Duration.ofSeconds(5);

  private final PipelineSettings settings;
  private final List<Source> sources;
  private final Sink sink;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final UnaryOperator<LogEntry> limiter;
  private final StopSignal pipelineStop = new StopSignal();
  private final AbandonedKeys abandoned = new AbandonedKeys();
  private final LeadershipFlag leadership = new LeadershipFlag();
  private final EgressGovernor governor;
  private final Committer committer;
  private final Map<LaneId, LaneQueue> queues = new LinkedHashMap<>();
  private final Map<LaneId, LaneConsumer> consumers = new LinkedHashMap<>();
  private final Map<Source, LaneId> laneOf = new IdentityHashMap<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final ProgressWatch watch; // FEAT-21 (a private, unread one when not watched)
  private boolean ran;

  /**
   * @param settings batching, queue and grace bounds
   * @param sources this term's fresh source instances
   * @param sink the process-lifetime sink
   * @param store the checkpoint store
   * @param metrics instruments
   * @param time clocks and sleeper
   * @param limiter applied to each real entry when it joins a batch (SINK-7, SINK-14)
   * @param commitListener notified after each successful checkpoint write
   */
  public Pipeline(
      PipelineSettings settings,
      List<Source> sources,
      Sink sink,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TimeSource time,
      UnaryOperator<LogEntry> limiter,
      CommitListener commitListener) {
    this(
        settings,
        sources,
        sink,
        store,
        metrics,
        time,
        limiter,
        commitListener,
        new EgressGovernor(EgressSettings.disabled(), time, metrics, Optional.empty()));
  }

  /**
   * As {@link #Pipeline(PipelineSettings, List, Sink, CheckpointStore, Sf2lokiMetrics, TimeSource,
   * UnaryOperator, CommitListener)} with the term's egress governor (EGR-1: one per term, shared by
   * both lanes).
   */
  public Pipeline(
      PipelineSettings settings,
      List<Source> sources,
      Sink sink,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TimeSource time,
      UnaryOperator<LogEntry> limiter,
      CommitListener commitListener,
      EgressGovernor governor) {
    this(settings, sources, sink, store, metrics, time, limiter, commitListener, governor, null);
  }

  /**
   * As {@link #Pipeline(PipelineSettings, List, Sink, CheckpointStore, Sf2lokiMetrics, TimeSource,
   * UnaryOperator, CommitListener, EgressGovernor)}, with each producer and lane consumer
   * registered on {@code watch} (FEAT-21: {@code source <name>}, {@code lane <lane>}); the term's
   * sleeper waits count as stop-aware waits.
   */
  public Pipeline(
      PipelineSettings settings,
      List<Source> sources,
      Sink sink,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TimeSource termTime,
      UnaryOperator<LogEntry> limiter,
      CommitListener commitListener,
      EgressGovernor governor,
      ProgressWatch watch) {
    this(
        settings,
        sources,
        sink,
        store,
        metrics,
        termTime,
        limiter,
        commitListener,
        governor,
        watch,
        s -> "");
  }

  /**
   * The full constructor: as {@link #Pipeline(PipelineSettings, List, Sink, CheckpointStore,
   * Sf2lokiMetrics, TimeSource, UnaryOperator, CommitListener, EgressGovernor, ProgressWatch)},
   * with one lane per kind and Loki identity group (SPEC PIPE-28): sources of different groups
   * never share a lane, and the lanes of one kind split its queue bounds ({@code queue_maxsize},
   * {@code queue_max_bytes}) equally.
   *
   * @param laneGroup each source's identity group; empty for the deployment's identity (with every
   *     source in the empty group the lanes are PIPE-2's two)
   */
  public Pipeline(
      PipelineSettings settings,
      List<Source> sources,
      Sink sink,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TimeSource termTime,
      UnaryOperator<LogEntry> limiter,
      CommitListener commitListener,
      EgressGovernor governor,
      ProgressWatch watch,
      Function<Source, String> laneGroup) {
    TimeSource time = watch != null ? ProgressWatch.watched(termTime) : termTime;
    this.watch = watch != null ? watch : new ProgressWatch(time.ticker());
    this.governor = governor;
    this.settings = settings;
    this.sources = List.copyOf(sources);
    this.sink = sink;
    this.metrics = metrics;
    this.time = time;
    this.limiter = limiter;
    this.committer =
        new Committer(
            store,
            abandoned,
            commitListener,
            settings.minWriteInterval(),
            time,
            metrics.checkpointWriteErrors,
            pipelineStop);
    Map<LaneId, Integer> producers = new HashMap<>();
    for (Source s : this.sources) {
      LaneId id = new LaneId(s.lane(), Objects.requireNonNull(laneGroup.apply(s), "lane group"));
      laneOf.put(s, id);
      producers.merge(id, 1, Integer::sum);
    }
    List<LaneId> ids = new ArrayList<>(producers.keySet());
    ids.sort(LANE_ORDER);
    Map<Lane, Integer> perKind = new EnumMap<>(Lane.class);
    ids.forEach(id -> perKind.merge(id.kind(), 1, Integer::sum));
    for (LaneId id : ids) {
      int n = perKind.get(id.kind());
      int maxEntries = Math.max(1, settings.queueMaxSize() / n);
      long maxBytes = settings.queueMaxBytes() <= 0 ? 0 : Math.max(1, settings.queueMaxBytes() / n);
      LaneQueue q =
          new LaneQueue(maxEntries, maxBytes, producers.get(id), pipelineStop, time.ticker());
      queues.put(id, q);
      consumers.put(
          id,
          new LaneConsumer(
              id.label(),
              q,
              sink,
              committer,
              abandoned,
              settings,
              limiter,
              metrics,
              time,
              pipelineStop,
              leadership,
              governor));
      if (ids.size() > perKind.size()) {
        log.atInfo()
            .addKeyValue("lane", id.label())
            .addKeyValue("queue_maxsize", maxEntries)
            .addKeyValue("queue_max_bytes", maxBytes)
            .log("lane per loki identity; queue bounds split with its kind's other lanes");
      }
    }
  }

  /** Lanes in kind order, the deployment's identity first, then the groups by name (PIPE-28). */
  private static final Comparator<LaneId> LANE_ORDER =
      Comparator.comparing(LaneId::kind)
          .thenComparing(id -> !id.group().isEmpty())
          .thenComparing(LaneId::group);

  /** Entries queued over all lanes (PIPE-3 {@code sf2loki_queue_depth}). */
  public long queueDepth() {
    long n = 0;
    for (LaneQueue q : queues.values()) {
      n += q.size();
    }
    return n;
  }

  /** Bytes charged over all lanes; 0 after a drained term (PIPE-21). */
  public long chargedBytes() {
    long n = 0;
    for (LaneQueue q : queues.values()) {
      n += q.chargedBytes();
    }
    return n;
  }

  /**
   * One view per lane present, in lane order (FEAT-3): depth and bytes as of the queue's last put
   * or take, and the lane's PIPE-11 failing mark. Takes no lock.
   */
  public List<LaneStatus> laneStatus() {
    List<LaneStatus> out = new ArrayList<>(queues.size());
    queues.forEach(
        (lane, q) ->
            out.add(
                new LaneStatus(
                    lane.kind(),
                    lane.group(),
                    q.publishedSize(),
                    q.publishedBytes(),
                    consumers.get(lane).failingSince())));
    return out;
  }

  /** Lane name → its queue's entry and byte bounds, in lane order (tests: PIPE-28). */
  Map<String, List<Long>> queueBounds() {
    Map<String, List<Long>> out = new LinkedHashMap<>();
    queues.forEach((id, q) -> out.put(id.label(), List.of((long) q.maxEntries(), q.maxBytes())));
    return out;
  }

  /** The earliest failing mark over the lanes (PIPE-11), or empty when all are healthy. */
  public Optional<Instant> failingSince() {
    return consumers.values().stream()
        .map(LaneConsumer::failingSince)
        .flatMap(Optional::stream)
        .min(Instant::compareTo);
  }

  /**
   * Ends the term through leadership loss (HA-4): nothing more is pushed or committed; queued and
   * batched entries are abandoned and counted ({@code reason="leadership_lost"}); the term's stop
   * fires. {@link #run} then returns once every thread was joined.
   */
  public void loseLeadership() {
    leadership.markLost();
    committer.suppress();
    pipelineStop.stop();
  }

  /** Whether {@link #loseLeadership()} was called. */
  public boolean leadershipLost() {
    return leadership.lost();
  }

  /** How long the checkpoint store has been failing (STATE-16); empty when healthy. */
  public Optional<Duration> storeFailingFor() {
    return committer.storeFailingFor();
  }

  /** The term's committer (tests). */
  Committer committer() {
    return committer;
  }

  /**
   * How long the sink has been failing: the longest failing time over the lanes (PIPE-11), measured
   * on the monotonic ticker (SRC-26), or empty when all lanes are healthy.
   */
  public Optional<Duration> failingFor() {
    return consumers.values().stream()
        .map(LaneConsumer::failingFor)
        .flatMap(Optional::stream)
        .max(Duration::compareTo);
  }

  /** The OBS-8 / EGR-8 readiness reason while a batch waits for the daily budget. */
  public Optional<String> egressPausedReason() {
    return governor.pausedReason();
  }

  /** The keys fenced by abandoned batches in this term (PIPE-15). */
  public AbandonedKeys abandonedKeys() {
    return abandoned;
  }

  /**
   * Runs the term's pipeline.
   *
   * <p>Returns when every source finished on its own and everything was delivered (finite run), or
   * when {@code stop} fired and the lanes drained (PIPE-13): producers stop, consumers flush what
   * is queued with single push attempts, and batches that fail are abandoned (PIPE-14). If the
   * lanes have not drained {@code shutdown_grace} after stop, threads are cancelled and the
   * remaining entries are counted as {@code drain_timeout}.
   *
   * @param stop the term's stop signal
   * @return true if the sources finished on their own (no stop)
   * @throws Exception the first failure of a producer, consumer or commit (PIPE-12)
   */
  public boolean run(StopSignal stop) throws Exception {
    synchronized (this) {
      if (ran) {
        throw new IllegalStateException("a pipeline runs once; build a fresh one per term");
      }
      ran = true;
    }
    stop.onStop(pipelineStop::stop);
    List<Thread> threads = new ArrayList<>();
    DrainLatch done = new DrainLatch(sources.size() + consumers.size() + 1, pipelineStop);
    threads.add(
        Thread.ofVirtual()
            .name("committer")
            .start(
                () -> {
                  try {
                    committer.run();
                  } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                  } catch (Throwable t) {
                    fail(t, "committer");
                  } finally {
                    done.countDown();
                  }
                }));
    Map<String, Attributes> attrCache = LaneEmitter.newAttrCache();
    for (Source source : sources) {
      LaneQueue q = queues.get(laneOf.get(source));
      LaneEmitter emitter = new LaneEmitter(q, settings.staticLabels(), metrics, time, attrCache);
      threads.add(
          Thread.ofVirtual()
              .name("producer-" + source.name())
              .start(
                  () -> {
                    try (var beat = watch.register("source " + source.name())) {
                      source.run(emitter, pipelineStop);
                    } catch (InterruptedException ex) {
                      Thread.currentThread().interrupt();
                    } catch (Throwable t) {
                      fail(t, "source " + source.name());
                    } finally {
                      q.producerFinished();
                      done.countDown();
                    }
                  }));
    }
    startConsumers(threads, done);
    awaitDrain(done, threads);
    Throwable t = failure.get();
    if (t instanceof Exception ex) {
      throw ex;
    } else if (t instanceof Error err) {
      throw err;
    }
    return !stop.isStopped();
  }

  /**
   * Starts one thread per lane consumer; the last one to end finishes the committer (or, with no
   * consumers, it is finished here).
   */
  private void startConsumers(List<Thread> threads, DrainLatch done) {
    java.util.concurrent.atomic.AtomicInteger consumersLeft =
        new java.util.concurrent.atomic.AtomicInteger(consumers.size());
    for (Map.Entry<LaneId, LaneConsumer> c : consumers.entrySet()) {
      threads.add(
          Thread.ofVirtual()
              .name("consumer-" + c.getKey().label())
              .start(
                  () -> {
                    try (var beat = watch.register("lane " + c.getKey().label())) {
                      c.getValue().run();
                    } catch (InterruptedException ex) {
                      Thread.currentThread().interrupt();
                    } catch (Throwable t) {
                      fail(t, "lane " + c.getKey().label());
                    } finally {
                      if (consumersLeft.decrementAndGet() == 0) {
                        // the last consumer: write what is pending unless leadership was lost
                        committer.finish(!leadership.lost());
                      }
                      done.countDown();
                    }
                  }));
    }
    if (consumers.isEmpty()) {
      committer.finish(true);
    }
  }

  private void fail(Throwable t, String where) {
    if (failure.compareAndSet(null, t)) {
      log.atError().setCause(t).addKeyValue("component", where).log("pipeline component failed");
    }
    pipelineStop.stop();
  }

  private void awaitDrain(DrainLatch done, List<Thread> threads) throws InterruptedException {
    // no deadline until stop fires or everything finished: woken by either, never polled
    done.awaitFinishedOrStopped();
    if (done.getCount() > 0 && !done.await(settings.shutdownGrace())) {
      long remaining = 0;
      for (Map.Entry<LaneId, LaneQueue> q : queues.entrySet()) {
        List<LogEntry> drained = q.getValue().drainAll();
        LaneConsumer consumer = consumers.get(q.getKey());
        long queued = drained.stream().filter(e -> !e.checkpointOnly()).count();
        long n = queued + consumer.pendingRealEntries();
        remaining += n;
        Attributes base =
            Attributes.of(
                Sf2lokiMetrics.LANE, q.getKey().label(), Sf2lokiMetrics.REASON, "drain_timeout");
        if (metrics.dropAttribution().enabled()) { // FEAT-10: queued ones and the batch in hand
          metrics.dropAttribution().add(metrics.pipelineEntriesAbandoned, base, drained);
          metrics
              .dropAttribution()
              .addGroups(metrics.pipelineEntriesAbandoned, base, consumer.pendingGroups());
        } else {
          metrics.pipelineEntriesAbandoned.add(n, base);
        }
      }
      log.atWarn()
          .addKeyValue("entries", remaining)
          .log("pipeline did not drain within shutdown_grace");
      threads.forEach(Thread::interrupt);
      if (!done.await(CLOSER_BUDGET)) {
        log.atError().log("pipeline threads did not stop after cancellation");
      }
    }
    for (Thread th : threads) {
      th.join(CLOSER_BUDGET.toMillis());
    }
    // release any charges left by cancelled producers (PIPE-21)
    queues.values().forEach(LaneQueue::drainAll);
  }
}
