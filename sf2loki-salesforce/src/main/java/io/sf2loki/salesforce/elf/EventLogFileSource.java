package io.sf2loki.salesforce.elf;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.source.PollGate;
import io.sf2loki.salesforce.source.PollLoop;
import io.sf2loki.salesforce.source.SourceContext;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EventLogFile source (SPEC §6, ELF-1…ELF-16): lists each type's new log files, downloads them,
 * parses their CSV rows and emits one entry per row with the type's cursor riding along. Lane
 * {@link Lane#BULK}, name {@code eventlogfile}. Built fresh for every leadership term; the cursors
 * are read from the store once per type (lazily, at the type's first cycle) and then kept in memory
 * for the term.
 *
 * <p>Threads: {@link #run} runs the cycle loop and is the only caller of the emitter. Each cycle
 * processes types on virtual threads (at most {@code concurrency} at once, ELF-1), which hand
 * entries over through a single-slot {@link CycleHandoff} one chunk at a time; CSV parsing and row
 * shaping run on the injected CPU executor (PIPE-26) in chunks of {@value
 * ElfFileProcessor#CHUNK_ROWS} rows. Worker threads are joined before a cycle ends; on stop they
 * are interrupted and joined.
 *
 * <p>Parts: this class runs the cycle (ELF-1, ELF-15); {@link ElfTypes} resolves each cycle's types
 * (ELF-2, ELF-3), {@link ElfTypeRun} lists and walks one type's files (ELF-4…ELF-7, ELF-13) and
 * {@link ElfFileProcessor} downloads, parses and emits one file (ELF-8…ELF-12). All log under this
 * class's logger.
 */
public final class EventLogFileSource implements Source, ReportsPolls {
  private static final Logger log = LoggerFactory.getLogger(EventLogFileSource.class);

  private static final String SOURCE = RowShaper.SOURCE;

  private final EventLogFileSettings settings;
  private final SalesforceRest rest;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final PollGate gate;
  private final ElfTypes types;
  private final ElfTypeRun typeRun;
  private final RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
  private final AtomicReference<CycleHandoff> currentCycle = new AtomicReference<>();
  private PollReporter reporter = PollReporter.NONE;

  /**
   * Creates the source for one term, without transforms and without an ownership registry.
   *
   * @see #EventLogFileSource(EventLogFileSettings, SalesforceRest, SourceContext, RowTransform,
   *     Predicate)
   */
  public EventLogFileSource(
      EventLogFileSettings settings, SalesforceRest rest, SourceContext context) {
    this(settings, rest, context, RowTransform.NONE, name -> false);
  }

  /**
   * Creates the source for one term.
   *
   * @param settings the org's {@code sources.eventlogfile} (defaulted and validated)
   * @param rest REST access to the org (listing, downloads, server now)
   * @param context time — wall clock (entry fallbacks, gauges), ticker (cycle time), stop-aware
   *     sleeper (poll interval) —, the CPU pool (PIPE-26), metrics, the cursors {@code
   *     eventlogfile:<EventType>} (read-only, unprefixed; a multi-org host prefixes, ORG-4) and the
   *     OBS-21 gate asked before each cycle (a closed gate skips the cycle until the next interval;
   *     no listing, no download, no cursor change)
   * @param transform compiled {@code sources.eventlogfile.transforms} (XF), or {@link
   *     RowTransform#NONE}
   * @param ownedElsewhere SRC-24 ownership check for discovered types: true when the EventType's
   *     category is owned by a Pub/Sub topic or an object of the same org (the type is then skipped
   *     with INFO); {@code name -> false} when {@code allow_overlap} or there is no registry
   */
  public EventLogFileSource(
      EventLogFileSettings settings,
      SalesforceRest rest,
      SourceContext context,
      RowTransform transform,
      Predicate<String> ownedElsewhere) {
    this.gate = context.gate();
    this.settings = Objects.requireNonNull(settings, "settings");
    this.rest = Objects.requireNonNull(rest, "rest");
    this.metrics = context.metrics();
    this.time = context.time();
    ElfListing listing = new ElfListing(rest, settings);
    this.types =
        new ElfTypes(
            settings,
            listing,
            metrics,
            Objects.requireNonNull(transform, "transform"),
            Objects.requireNonNull(ownedElsewhere, "ownedElsewhere"));
    this.typeRun =
        new ElfTypeRun(
            settings,
            listing,
            context.stored(),
            metrics,
            time,
            new ElfFileProcessor(settings, rest, metrics, time, context.offload()));
  }

  @Override
  public String name() {
    return SOURCE;
  }

  @Override
  public Lane lane() {
    return Lane.BULK;
  }

  /**
   * ELF-1: runs cycles every jittered {@code poll_interval} (SRC-21; stop-aware) until {@code stop}
   * fires or the emitter refuses an entry; with {@link EventLogFileSettings#finite()} cycles run
   * back to back and it returns after the first cycle that processed no new file.
   *
   * @throws Exception an unexpected (non-Salesforce) failure of a worker, re-raised after all
   *     workers of its cycle finished (ELF-15); it ends the term
   */
  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
    stop.onStop(
        () -> {
          CycleHandoff h = currentCycle.get();
          if (h != null) {
            h.close();
          }
        });
    // finite runs (demo, tests, backfill-like use) drain without waiting
    new PollLoop(settings.pollInterval(), settings.finite(), time.sleeper(), random)
        .run(
            stop,
            () -> {
              CycleReport report = gate.open() ? runOnce(emitter, stop) : paused(); // OBS-21
              return new PollLoop.Poll.Result(report.stopped(), report.filesDone() > 0);
            });
  }

  /**
   * Outcome of one cycle.
   *
   * @param filesDone files processed or abandoned (the cursor moved past them)
   * @param throttled whether a worker left the cycle throttled (ELF-15)
   * @param stopped whether the stop signal fired or the emitter refused an entry
   */
  public record CycleReport(int filesDone, boolean throttled, boolean stopped) {}

  /** A cycle skipped by the API reserve (OBS-21). */
  private static final CycleReport SKIPPED = new CycleReport(0, false, false);

  /** OBS-21: the cycle is skipped; every known type reports {@code paused} (FEAT-3). */
  private CycleReport paused() {
    types.known().forEach(t -> reporter.paused(t.key));
    return SKIPPED;
  }

  /**
   * Reports each type's poll results to {@code r} (FEAT-3, OBS-35), keyed by checkpoint key. Call
   * before {@link #run}.
   *
   * @return this
   */
  @Override
  public EventLogFileSource reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
    return this;
  }

  /**
   * Runs exactly one cycle (ELF-1) and returns when all its workers finished. For tests and finite
   * runs; {@link #run} calls it in a loop. Call from one thread at a time.
   *
   * @throws Exception an unexpected worker failure (ELF-15)
   */
  public CycleReport runOnce(EntryEmitter emitter, StopSignal stop) throws Exception {
    long t0 = time.ticker().nanoTime();
    Instant serverNow = rest.serverNow();
    Optional<List<ElfType>> resolved = types.resolve(reporter);
    if (resolved.isEmpty()) {
      types.explicit().forEach(t -> reporter.skipped(t.key)); // ELF-3: no type this cycle
      metrics.eventlogfileCycleSeconds.set((time.ticker().nanoTime() - t0) / 1e9);
      return new CycleReport(0, true, stop.isStopped());
    }
    Deque<ElfType> waiting = new ArrayDeque<>(types.rotated(resolved.get()));
    CycleHandoff h = new CycleHandoff();
    currentCycle.set(h);
    if (stop.isStopped()) {
      h.close();
    }
    Workers w = new Workers(new ElfCycle(serverNow, h, reporter));
    boolean stopped = w.drive(waiting, emitter);
    boolean throttled = h.throttled();
    if (throttled && !waiting.isEmpty()) {
      log.atWarn()
          .addKeyValue("source", SOURCE)
          .addKeyValue("skipped_types", waiting.stream().map(t -> t.name).toList())
          .log("eventlogfile cycle throttled; remaining types skipped until the next cycle");
      waiting.forEach(t -> reporter.skipped(t.key));
    }
    metrics.eventlogfileCycleSeconds.set((time.ticker().nanoTime() - t0) / 1e9);
    Throwable failure = w.unexpected.get();
    if (failure instanceof Exception ex) {
      throw ex;
    } else if (failure instanceof Error err) {
      throw err;
    }
    return new CycleReport(w.filesDone.get(), throttled, stopped || stop.isStopped());
  }

  /** One cycle's workers (ELF-1): at most {@code concurrency} types at once on virtual threads. */
  private final class Workers {
    final ElfCycle cycle;
    final AtomicReference<Throwable> unexpected = new AtomicReference<>();
    final AtomicInteger filesDone = new AtomicInteger();

    Workers(ElfCycle cycle) {
      this.cycle = cycle;
    }

    /**
     * Starts types, emits their entries on this thread and returns when all workers ended.
     *
     * @return whether the cycle stopped (stop signal, or the emitter refused an entry)
     */
    boolean drive(Deque<ElfType> waiting, EntryEmitter emitter) throws InterruptedException {
      CycleHandoff h = cycle.handoff();
      boolean stopped = false;
      ExecutorService workers =
          Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sf2loki-elf-", 0).factory());
      try {
        loop:
        while (true) {
          CycleHandoff.Next next = h.next(!waiting.isEmpty(), settings.concurrency());
          switch (next.step()) {
            case EMIT -> {
              // one lane hand-off per group (PIPE-3 bounds still hold per entry)
              if (emitter.emitAll(next.entries()) < next.entries().size()) {
                h.close();
                stopped = true;
                break loop;
              }
            }
            case START -> start(workers, waiting.poll());
            case DONE -> {
              break loop;
            }
            case STOPPED -> {
              stopped = true;
              break loop;
            }
          }
        }
      } catch (InterruptedException e) {
        h.close();
        throw e;
      } finally {
        if (stopped || h.closed()) {
          workers.shutdownNow();
        }
        workers.close();
        currentCycle.compareAndSet(h, null);
      }
      return stopped;
    }

    private void start(ExecutorService workers, ElfType t) {
      types.started(t);
      workers.execute(
          () -> {
            try {
              filesDone.addAndGet(typeRun.process(t, cycle));
            } catch (CycleStoppedException e) {
              // the hand-off closed: the cycle is ending
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } catch (Throwable e) {
              unexpected.compareAndSet(null, e);
            } finally {
              cycle.handoff().workerDone();
            }
          });
    }
  }
}
