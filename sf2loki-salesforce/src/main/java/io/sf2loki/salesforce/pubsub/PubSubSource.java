package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.model.Lane;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.rest.MalformedResponseException;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.source.SourceOwnership;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Pub/Sub source of one org for one leadership term (SPEC PS-16…PS-21, SRC-24, PIPE-20…24).
 *
 * <p>It resolves the configured topics (PS-19), discovers RTEM topics when {@code "*"} is
 * configured (PS-20) and rediscovers them periodically (PS-21), and runs exactly one reader thread
 * per topic ({@link TopicRunner}), all writing into one {@link PubSubBridge} built for this term.
 * The thread calling {@link #run} is the drain loop: it moves entries from the bridge to the lane,
 * blocking while the lane is full, so a full lane blocks the bridge and a full bridge blocks the
 * readers (PS-18).
 *
 * <p>Threads, all owned and joined by {@link #run} before it returns (PIPE-23): one virtual thread
 * per topic named {@code sf2loki-pubsub-reader-<topic>}, and with {@code "*"} one virtual thread
 * {@code sf2loki-pubsub-discovery}. A reader whose {@link TopicRunner} throws (or returns before
 * its stop fired) is logged and restarted with backoff (PS-16); errors never end the source. A JVM
 * {@link Error} escaping a reader or the discovery thread ends the term: {@link #run} rethrows it
 * after the teardown.
 *
 * <p>Without {@code "*"} and with no topic surviving the filter the source ends at once; with
 * {@code "*"} it never ends on its own (PS-21). On stop every reader's stop fires, the bridge is
 * closed (its charges released, PIPE-21) and {@link #run} returns after every thread finished.
 */
public final class PubSubSource implements Source, ReportsPolls {
  private static final Logger log = LoggerFactory.getLogger(PubSubSource.class);

  /** The source name, also the {@code source} label value. */
  public static final String NAME = "pubsub";

  /**
   * Lists the sObject names of the org for discovery (PS-20). Implementations call {@code GET
   * {instance_url}/services/data/v{api}/sobjects/} and handle a 401 by invalidating the token and
   * repeating the call once; see {@link #over(HttpSalesforceRest)}.
   */
  @FunctionalInterface
  public interface SObjectLister {
    /**
     * The names of every sObject of the org, in any order.
     *
     * @return the names
     * @throws InterruptedException if the thread is interrupted
     * @throws Exception on any failure of the call (one failed discovery attempt)
     */
    List<String> sobjectNames() throws Exception;

    /**
     * The lister over the org's REST client: {@code GET /services/data/v{api}/sobjects/} through
     * {@link HttpSalesforceRest#getObject} (SRC-25 timeouts, one 401 retry after invalidation),
     * keeping the {@code name} of every element of the {@code sobjects} array.
     *
     * @throws MalformedResponseException (from the lister) when the body has no {@code sobjects}
     *     array
     */
    static SObjectLister over(HttpSalesforceRest rest) {
      Objects.requireNonNull(rest, "rest");
      return () -> describeGlobalNames(rest);
    }
  }

  /**
   * The Pub/Sub name of the org's SRC-24 registry ({@link SourceOwnership}), kept for the callers
   * that build one by hand (tests, benchmarks); the source takes any {@link SourceOwnership}.
   */
  @FunctionalInterface
  public interface TopicOwnership extends SourceOwnership {
    /** No registry: nothing is owned elsewhere. */
    static TopicOwnership none() {
      return topic -> false;
    }
  }

  private final PubSubSourceSettings settings;
  private final TopicRunner runner;
  private final SObjectLister lister;
  private final SourceOwnership ownership;
  private final TimeSource time;
  private final DoubleSupplier random;
  private final PubSubBridge bridge;
  private volatile PollReporter redactor = PollReporter.NONE;

  private final Map<String, Reader> readers = new ConcurrentHashMap<>();
  private final AtomicReference<Throwable> fatal = new AtomicReference<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean firstPassReported = new AtomicBoolean();

  /** Consecutive successful passes a discovered topic was absent from; discovery thread only. */
  private final Map<String, Integer> absentPasses = new HashMap<>();

  /** Discovered topics already reported as owned elsewhere; discovery thread only. */
  private final Set<String> loggedOwned = new HashSet<>();

  /** One topic's reader thread and its own stop signal (fired by the term or by retirement). */
  private static final class Reader {
    final String topic;
    final boolean discovered;
    final StopSignal stop = new StopSignal();
    Thread thread;

    Reader(String topic, boolean discovered) {
      this.topic = topic;
      this.discovered = discovered;
    }
  }

  /**
   * Creates the source for one term, with uniform random jitter.
   *
   * @see #PubSubSource(PubSubSourceSettings, TopicRunner, SObjectLister, SourceOwnership,
   *     TimeSource, DoubleSupplier)
   */
  public PubSubSource(
      PubSubSourceSettings settings,
      TopicRunner runner,
      SObjectLister lister,
      SourceOwnership ownership,
      TimeSource time) {
    this(settings, runner, lister, ownership, time, () -> ThreadLocalRandom.current().nextDouble());
  }

  /**
   * Creates the source for one term, with a fresh bridge of {@code settings.bridgeMaxBytes()}
   * (PIPE-20).
   *
   * @param settings the org's {@code sources.pubsub} orchestration settings
   * @param runner runs one topic's subscription until its stop fires (PS-2…PS-15)
   * @param lister lists the org's sObjects for discovery (PS-20); unused without {@code "*"}
   * @param ownership the org's SRC-24 registry, or {@link SourceOwnership#none()}
   * @param time ticker (reader restart backoff reset) and stop-aware sleeper (every wait)
   * @param random uniform values in [0, 1) for jitter; called from several threads
   */
  public PubSubSource(
      PubSubSourceSettings settings,
      TopicRunner runner,
      SObjectLister lister,
      SourceOwnership ownership,
      TimeSource time,
      DoubleSupplier random) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.lister = Objects.requireNonNull(lister, "lister");
    this.ownership = Objects.requireNonNull(ownership, "ownership");
    this.time = Objects.requireNonNull(time, "time");
    this.random = Objects.requireNonNull(random, "random");
    this.bridge = new PubSubBridge(settings.bridgeMaxBytes());
  }

  /**
   * Masks secrets in the reader and discovery failure logs as {@code r} does (SPEC OBS-34); without
   * it only credential-looking parts are masked. The daemon sets its status board here, as for
   * every {@link ReportsPolls} source (the readers report their polls through {@link
   * TopicReaders}). Call before {@link #run}.
   *
   * @return this
   */
  @Override
  public PubSubSource reportTo(PollReporter r) {
    this.redactor = Objects.requireNonNull(r, "reporter");
    return this;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Lane lane() {
    return Lane.STREAMING;
  }

  /** This term's bridge (PS-17), for metrics and tests. */
  public PubSubBridge bridge() {
    return bridge;
  }

  /** The topics that currently have a reader (started and not yet retired), sorted. */
  public SortedSet<String> activeTopics() {
    return new TreeSet<>(readers.keySet());
  }

  /**
   * Runs the term: starts the readers (and discovery), then drains the bridge into {@code emitter}
   * until {@code stop} fires or the lane refuses an entry; returns after every thread of the source
   * has been joined and the bridge closed (PS-16, PIPE-21, PIPE-23).
   *
   * @throws IllegalStateException when called a second time (one source instance per term)
   * @throws InterruptedException if the calling thread is interrupted (readers are interrupted and
   *     joined first)
   * @throws Exception an {@link Error} escaping a reader or the discovery thread is rethrown (ends
   *     the term, PIPE-12); an exception of {@code emitter} propagates
   */
  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
    Objects.requireNonNull(emitter, "emitter");
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("a PubSubSource runs once; build a fresh one per term");
    }
    StopSignal term = new StopSignal();
    stop.onStop(term::stop);
    PubSubTopics.Resolved resolved = PubSubTopics.resolve(settings.topics(), settings.filter());
    if (!resolved.discover() && resolved.explicit().isEmpty()) {
      log.atInfo()
          .addKeyValue("source", NAME)
          .log("pubsub source has no topic after include/exclude filtering; ending");
      bridge.close();
      return;
    }
    Thread discovery = null;
    boolean interrupted = false;
    try {
      for (String topic : resolved.explicit()) {
        startReader(topic, false, term);
      }
      if (resolved.discover()) {
        discovery =
            Thread.ofVirtual()
                .name("sf2loki-pubsub-discovery")
                .start(() -> discoveryLoop(resolved.explicit(), term));
      }
      while (!term.isStopped()) {
        if (!bridge.transferTo(emitter, term)) {
          break;
        }
      }
    } catch (InterruptedException e) {
      interrupted = true;
      throw e;
    } finally {
      term.stop();
      teardown(discovery, interrupted);
    }
    Throwable f = fatal.get();
    if (f instanceof Error err) {
      throw err;
    }
    if (f != null) {
      throw new IllegalStateException("pubsub source failed", f);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // readers (PS-16)

  private void startReader(String topic, boolean discovered, StopSignal term) {
    Reader r = new Reader(topic, discovered);
    term.onStop(r.stop::stop);
    r.thread =
        Thread.ofVirtual()
            .name("sf2loki-pubsub-reader-" + topic)
            .unstarted(() -> readerLoop(r, term));
    readers.put(topic, r);
    r.thread.start();
  }

  private void readerLoop(Reader r, StopSignal term) {
    Duration initial = settings.readerRestartBackoff();
    Duration max = settings.readerRestartBackoffMax();
    Duration backoff = initial;
    while (!r.stop.isStopped()) {
      long startedAt = time.ticker().nanoTime();
      try {
        runner.run(r.topic, bridge, r.stop);
        if (r.stop.isStopped()) {
          return;
        }
        log.atWarn()
            .addKeyValue("source", NAME)
            .addKeyValue("topic", r.topic)
            .log("pubsub topic reader returned before stop; restarting");
      } catch (InterruptedException e) {
        return; // teardown interrupts readers only after their stop fired
      } catch (Exception e) {
        if (r.stop.isStopped()) {
          return;
        }
        log.atError()
            .addKeyValue("source", NAME)
            .addKeyValue("topic", r.topic)
            .addKeyValue("error", redactor.redact(describe(e)))
            .setCause(redactor.redactError(e))
            .log("pubsub topic reader failed; restarting");
      } catch (Throwable t) {
        fatal.compareAndSet(null, t);
        term.stop();
        return;
      }
      if (time.ticker().nanoTime() - startedAt >= max.toNanos()) {
        backoff = initial; // a reader that ran for a while starts its backoff afresh
      }
      try {
        if (!time.sleeper().sleep(jittered(backoff), r.stop)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
      backoff = backoff.multipliedBy(2).compareTo(max) > 0 ? max : backoff.multipliedBy(2);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // discovery (PS-20, PS-21, SRC-24)

  private void discoveryLoop(List<String> explicit, StopSignal term) {
    boolean succeeded = false;
    try {
      while (!term.isStopped()) {
        Optional<List<String>> names = discoverWithRetries(term);
        if (term.isStopped()) {
          return;
        }
        if (names.isPresent()) {
          applyPass(names.get(), explicit, term);
          succeeded = true;
        }
        reportFirstPass();
        Duration wait;
        if (settings.rediscoveryInterval().isZero()) {
          if (succeeded) {
            return; // discover at startup only
          }
          wait = settings.discoveryRetryWhenNoInterval();
        } else {
          wait = settings.rediscoveryInterval();
        }
        if (!time.sleeper().sleep(jittered(wait), term)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      // teardown
    } catch (Throwable t) {
      fatal.compareAndSet(null, t);
      term.stop();
    } finally {
      reportFirstPass();
    }
  }

  private void reportFirstPass() {
    if (firstPassReported.compareAndSet(false, true)) {
      ownership.firstPassDone();
    }
  }

  /** One pass: up to {@code discoveryAttempts} attempts; empty when all failed or stop fired. */
  private Optional<List<String>> discoverWithRetries(StopSignal term) throws InterruptedException {
    Duration backoff = settings.discoveryBackoff();
    String lastError = "";
    int attempts = settings.discoveryAttempts();
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try {
        return Optional.of(List.copyOf(lister.sobjectNames()));
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        lastError = redactor.redact(describe(e));
        log.atWarn()
            .addKeyValue("source", NAME)
            .addKeyValue("attempt", attempt)
            .addKeyValue("error", lastError)
            .log("pubsub topic discovery attempt failed");
      }
      if (attempt < attempts) {
        if (!time.sleeper().sleep(jittered(backoff), term)) {
          return Optional.empty();
        }
        backoff = backoff.multipliedBy(2);
      }
    }
    log.atError()
        .addKeyValue("source", NAME)
        .addKeyValue("attempts", attempts)
        .addKeyValue("error", lastError)
        .log("pubsub topic discovery failed; this pass uses explicit topics only");
    return Optional.empty();
  }

  /** Applies one successful pass: new topics get a reader, long-absent ones are retired. */
  private void applyPass(List<String> sobjectNames, List<String> explicit, StopSignal term)
      throws InterruptedException {
    List<String> found =
        PubSubTopics.newDiscovered(
            PubSubTopics.discoveredTopics(sobjectNames), explicit, settings.filter());
    Set<String> foundSet = new HashSet<>(found);
    for (String topic : found) {
      absentPasses.remove(topic);
      if (readers.containsKey(topic)) {
        continue; // never a second reader for a live topic
      }
      if (ownership.ownedElsewhere(topic)) {
        if (loggedOwned.add(topic)) {
          log.atInfo()
              .addKeyValue("source", NAME)
              .addKeyValue("topic", topic)
              .log("discovered pubsub topic skipped: its category is owned by another source");
        }
        continue;
      }
      if (term.isStopped()) {
        return;
      }
      ownership.claim(topic);
      startReader(topic, true, term);
      log.atInfo()
          .addKeyValue("source", NAME)
          .addKeyValue("topic", topic)
          .log("pubsub topic discovered; reader started");
    }
    List<Reader> retire = new ArrayList<>();
    for (Reader r : readers.values()) {
      if (r.discovered && !foundSet.contains(r.topic)) {
        if (absentPasses.merge(r.topic, 1, Integer::sum) >= 2) {
          retire.add(r);
        }
      }
    }
    for (Reader r : retire) {
      retireReader(r);
    }
  }

  /** PS-21: stop and join the reader, then release its category (SRC-24). */
  private void retireReader(Reader r) throws InterruptedException {
    log.atInfo()
        .addKeyValue("source", NAME)
        .addKeyValue("topic", r.topic)
        .log("pubsub topic absent from two consecutive discovery passes; retiring its reader");
    r.stop.stop();
    r.thread.join(); // interrupted only at teardown, which joins and releases it instead
    readers.remove(r.topic);
    absentPasses.remove(r.topic);
    ownership.release(r.topic);
  }

  // ---------------------------------------------------------------------------------------------
  // teardown (PS-16, PIPE-21, PIPE-23)

  private void teardown(Thread discovery, boolean interruptReaders) {
    boolean interrupted = interruptReaders;
    if (discovery != null) {
      if (interruptReaders) {
        discovery.interrupt();
      }
      interrupted |= joinQuietly(discovery);
    }
    List<Reader> all = new ArrayList<>(readers.values());
    for (Reader r : all) {
      r.stop.stop();
      if (interrupted) {
        r.thread.interrupt();
      }
    }
    for (Reader r : all) {
      interrupted |= joinQuietly(r.thread);
    }
    bridge.close();
    for (Reader r : all) {
      readers.remove(r.topic);
      if (r.discovered) {
        ownership.release(r.topic);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Joins {@code t}; if the caller is interrupted meanwhile, interrupts {@code t} and keeps
   * joining.
   *
   * @return whether the caller was interrupted
   */
  private static boolean joinQuietly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        return interrupted;
      } catch (InterruptedException e) {
        interrupted = true;
        t.interrupt();
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** {@code base} plus uniform jitter in [0, base/2] (PS-14, PS-20, PS-21). */
  private Duration jittered(Duration base) {
    double u = Math.min(Math.max(random.getAsDouble(), 0.0), 1.0);
    return base.plusNanos((long) (base.toNanos() / 2.0 * u));
  }

  private static String describe(Throwable e) {
    String msg = e.getMessage();
    return msg == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + msg;
  }

  private static List<String> describeGlobalNames(HttpSalesforceRest rest)
      throws SoqlException, InterruptedException {
    Map<String, Object> body =
        rest.getObject("/services/data/v" + rest.apiVersion() + "/sobjects/");
    if (!(body.get("sobjects") instanceof List<?> list)) {
      throw new MalformedResponseException("malformed response: no sobjects array", 200);
    }
    List<String> names = new ArrayList<>(list.size());
    for (Object o : list) {
      if (o instanceof Map<?, ?> m && m.get("name") instanceof String n) {
        names.add(n);
      }
    }
    return names;
  }
}
