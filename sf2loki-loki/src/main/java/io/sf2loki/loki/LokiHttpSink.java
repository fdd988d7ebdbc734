package io.sf2loki.loki;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.RetrySchedule;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.LokiResponses.Classification;
import io.sf2loki.loki.LokiResponses.Kind;
import io.sf2loki.loki.SinkPush.Exchange;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes batches to Loki's HTTP push API (SPEC SINK-1…SINK-19).
 *
 * <ul>
 *   <li>Requests ({@link LokiRequests}, SINK-2…SINK-5) sent by {@link LokiTransport} on one JDK
 *       {@code HttpClient} (SINK-3: HTTP/1.1, redirects never followed, connections reused,
 *       virtual-thread executor).
 *   <li>Classification from the whole body up to 64 KiB ({@link LokiBody}, {@link LokiResponses},
 *       SINK-8); 429/5xx/transport errors resend the same request as the caller's retry layer
 *       decides and waits ({@link Sink.Retries}: the lane's {@link RetrySchedule}, SINK-9, the one
 *       retry layer of Loki pushes); the tenant's {@code Retry-After} gate shared by both lanes
 *       ({@link TenantGate}, SINK-17), and the last {@code Retry-After} handed to the pipeline in
 *       {@link RetryableSinkException}.
 *   <li>400/413 splitting with the split-storm guard (SINK-10), except after a distributor 400 that
 *       accounts for its refusals: the stored rest is committed, never re-sent ({@link
 *       DistributorRejections}, SINK-19); structured-metadata modes and the {@code auto} fallback
 *       (SINK-12).
 *   <li>Late entries (SINK-13, SINK-15, SINK-16): entries older than their stream's newest
 *       delivered entry minus the out-of-order window are routed late before any push ({@link
 *       StreamMarks}); a stream's entries go in timestamp order ({@link RequestPlan}); after a
 *       partially accepted 400 only the entries Loki names as refused are handled ({@link
 *       PartialAcceptance}), else the request is split. Refused {@code too_far_behind}, {@code
 *       too_old} and {@code too_new} entries are restamped once ({@link Restamper}) under {@code
 *       restamp}, dropped under {@code drop}; {@code line_too_long} is dropped.
 * </ul>
 *
 * <p>What happened to a batch's entries ({@link BatchMarks}) lives in the batch's {@link
 * Sink.Delivery} ({@link #open(Batch)}), which the lane holds across the batch's retries: the next
 * attempt skips entries delivered, dropped or restamped, re-sends restamped forms unchanged and
 * reports drops once (SINK-10). The sink keeps no per-batch state between calls: {@link
 * #push(Batch, boolean, StopSignal)} is one attempt of a fresh delivery, so a caller that retries a
 * batch holds its delivery ({@link #open(Batch)}) to skip what an earlier attempt settled.
 *
 * <p>Thread-safe: both lanes may push concurrently.
 */
public final class LokiHttpSink implements Sink {
  private static final Logger log = LoggerFactory.getLogger(LokiHttpSink.class);

  /** SINK-9: attempts per request for 429/5xx/transport outcomes. */
  public static final int MAX_ATTEMPTS = RetrySchedule.REQUEST_ATTEMPTS;

  private static final String TOO_FAR_BEHIND = "too_far_behind";
  private static final String TOO_OLD = "too_old";
  private static final String TOO_NEW = "too_new";
  private static final Attributes ROUTED =
      Attributes.of(Sf2lokiMetrics.REASON, TOO_FAR_BEHIND, Sf2lokiMetrics.STAGE, "routed");
  private static final Attributes TARGETED = Attributes.of(Sf2lokiMetrics.MODE, "targeted");
  private static final Attributes BISECTION = Attributes.of(Sf2lokiMetrics.MODE, "bisection");

  private final LokiSinkSettings settings;
  private final Sf2lokiMetrics metrics;
  private final LokiTransport transport;
  private final AtomicBoolean metadataDisabled = new AtomicBoolean();
  private final Restamper restamper;

  private final StreamMarks streamMarks;

  /** SINK-9 request retries for deliveries opened without a retry layer (tools, tests). */
  private final RetrySchedule standalone;

  /**
   * Creates the sink and its HTTP client.
   *
   * @param settings URL, identity, encoding, timeouts
   * @param metrics the application instance's metrics
   * @param sleeper waits of the tenant gate (SINK-17) and, for pushes opened without a retry layer
   *     ({@link #open(Batch)}), between request retries (SINK-9); tests pass a recording fake
   * @param random jitter source for those retry waits; accessed under its own lock, so any
   *     generator works
   */
  public LokiHttpSink(
      LokiSinkSettings settings, Sf2lokiMetrics metrics, Sleeper sleeper, RandomGenerator random) {
    this(settings, metrics, sleeper, random, Runnable::run);
  }

  /**
   * As {@link #LokiHttpSink(LokiSinkSettings, Sf2lokiMetrics, Sleeper, RandomGenerator)}, encoding
   * and compressing each request body on {@code cpuExecutor} — the application's bounded
   * platform-thread pool (SPEC PIPE-26) — while the pushing virtual thread waits (interruptibly).
   * Restamps (SINK-13) use the system clock.
   */
  public LokiHttpSink(
      LokiSinkSettings settings,
      Sf2lokiMetrics metrics,
      Sleeper sleeper,
      RandomGenerator random,
      Executor cpuExecutor) {
    this(settings, metrics, sleeper, random, cpuExecutor, InstantSource.system());
  }

  /**
   * The full constructor.
   *
   * @param settings URL, identity, encoding, timeouts, late-entry mode and batch limits
   * @param metrics the application instance's metrics
   * @param sleeper waits of the tenant gate (SINK-17) and of request retries of deliveries opened
   *     without a retry layer (SINK-9)
   * @param random jitter source for those retry waits
   * @param cpuExecutor where request bodies are encoded and compressed (PIPE-26)
   * @param clock the local clock whose now stamps restamped late entries (SINK-13); the restamp
   *     clock built on it lives as long as this sink (PIPE-20: build one sink per process)
   */
  public LokiHttpSink(
      LokiSinkSettings settings,
      Sf2lokiMetrics metrics,
      Sleeper sleeper,
      RandomGenerator random,
      Executor cpuExecutor,
      InstantSource clock) {
    this.restamper = new Restamper(clock);
    this.streamMarks =
        new StreamMarks(
            settings.maxTrackedStreams(),
            settings.outOfOrderWindow(),
            n -> metrics.lokiTrackedStreams.set(n));
    this.settings = settings;
    this.metrics = metrics;
    this.standalone = RetrySchedule.requests(sleeper, random, metrics);
    this.transport =
        new LokiTransport(settings, metrics, cpuExecutor, new TenantGate(clock, sleeper));
    metrics.lokiStructuredMetadataEnabled.set(metadataEnabled() ? 1 : 0);
  }

  /** Production wiring: real sleeper, non-deterministic jitter. */
  public LokiHttpSink(LokiSinkSettings settings, Sf2lokiMetrics metrics) {
    this(settings, metrics, Sleeper.system(), new Random());
  }

  /** Whether structured metadata is currently sent (SINK-12). */
  public boolean metadataEnabled() {
    return settings.structuredMetadata() != MetadataMode.OFF && !metadataDisabled.get();
  }

  /**
   * Pushes the real entries of {@code batch} (SINK-8…SINK-12), with request retry waits (SINK-9, on
   * this sink's sleeper) that end when {@code stop} fires (the push then fails with {@link
   * RetryableSinkException}, PIPE-14).
   *
   * @param batch the batch; checkpoint-only entries are ignored
   * @param singleAttempt one attempt per request, no retries (after the term's stop)
   * @param stop the term's stop signal
   * @return body bytes of the accepted requests and the entries dropped per reason
   * @throws RetryableSinkException nothing (more) was stored; retry through {@link #open(Batch)} to
   *     skip what this attempt settled
   * @throws PermanentSinkException the whole batch was rejected by one permanent response: 422, a
   *     400/413 on a single-entry batch, or a 400 rejecting every entry for one per-entry reason
   *     ({@code reason()} is the drop reason)
   * @throws InterruptedException if the thread is interrupted
   */
  @Override
  public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    return open(batch).push(singleAttempt, stop);
  }

  /** {@link #open(Batch, Sink.Retries)} with SINK-9 request retries on this sink's sleeper. */
  @Override
  public Sink.Delivery open(Batch batch) {
    return open(batch, standalone);
  }

  /**
   * The batch's delivery: its {@link BatchMarks} live in the returned object, so a retry through it
   * needs no state in the sink (PIPE-7); {@code retries} decides and waits every request retry
   * (SINK-9) and hears of every failed attempt first (PIPE-11).
   */
  @Override
  public Sink.Delivery open(Batch batch, Sink.Retries retries) {
    BatchMarks marks = new BatchMarks(batch);
    return (singleAttempt, stop) -> push(marks, singleAttempt, stop, retries);
  }

  private PushResult push(
      BatchMarks marks, boolean singleAttempt, StopSignal stop, Sink.Retries retries)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    List<LogEntry> all = marks.batch.realEntries();
    List<LogEntry> entries = marks.isEmpty() ? all : marks.remaining(all);
    boolean fresh = marks.isEmpty();
    List<LogEntry> late = streamMarks.behind(entries);
    if (!late.isEmpty()) {
      routeLate(late, marks);
      entries = marks.remaining(all);
    }
    List<List<LogEntry>> requests =
        RequestPlan.requests(RequestPlan.ordered(entries), streamMarks::known);
    SinkPush p =
        new SinkPush(
            singleAttempt, marks, fresh && late.isEmpty() && requests.size() == 1, stop, retries);
    for (List<LogEntry> request : requests) {
      process(request, exchange(request, p), p, 0);
    }
    pushRestamped(p);
    return new PushResult(p.bytes, marks.counts, marks.droppedEntries);
  }

  /** Ends gate waits (a waiting push fails retryably) and closes the HTTP client. */
  @Override
  public void close() {
    transport.close();
  }

  /**
   * SINK-15: entries older than their tracked stream's newest delivered entry minus the routing
   * window are restamped (or, under {@code drop}, dropped) without being pushed live.
   */
  private void routeLate(List<LogEntry> late, BatchMarks marks) {
    if (settings.lateEntries() == LokiSinkSettings.LateEntries.RESTAMP) {
      marks.restamp(late, restamper.restamp(late));
      metrics.lokiEntriesRestamped.add(late.size(), ROUTED);
    } else {
      marks.drop(late, TOO_FAR_BEHIND);
    }
    boolean drop = settings.lateEntries() == LokiSinkSettings.LateEntries.DROP;
    (drop ? log.atWarn() : log.atInfo())
        .addKeyValue("entries", late.size())
        .addKeyValue("late_entries", drop ? "drop" : "restamp")
        .log("entries older than their stream's out-of-order window; routed late before the push");
  }

  private void process(List<LogEntry> entries, Exchange ex, SinkPush p, int depth)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    int n = entries.size();
    Classification c = ex.classification();
    switch (c.kind()) {
      case SUCCESS -> {
        p.marks.delivered(entries);
        streamMarks.delivered(entries);
        p.bytes += ex.bodyBytes();
        metrics.lokiBytesPushed.add(ex.bodyBytes());
        transport.recovered();
      }
      case RETRYABLE_NOW, UNEXPECTED, RETRY_IN_SINK ->
          throw fail(
              c.kind() == Kind.UNEXPECTED
                  ? "unexpected HTTP " + ex.status()
                  : "loki push not stored: HTTP " + ex.status(),
              ex.status(),
              ex.body());
      case METADATA_REFUSED ->
          throw fail(
              "loki refuses structured metadata: configuration outage", ex.status(), ex.body());
      case REQUEST_WIDE ->
          throw fail("loki rejected the request as a whole: configuration outage", 400, ex.body());
      case PER_ENTRY -> {
        if (c.reason().equals(TOO_FAR_BEHIND)) {
          streamMarks.learn(PartialAcceptance.cutoffs(ex.body()));
        }
        if (n == 1 || LokiResponses.coversAll(ex.body(), n)) {
          rejected(entries, c.reason(), ex, p, depth);
        } else {
          partiallyAccepted(entries, c.reason(), ex, p, depth);
        }
      }
      case SPLITTABLE -> {
        if (n == 1) {
          drop(entries, c.reason(), ex, p, depth);
        } else if (ex.status() != 400 || !distributorRefused(entries, ex, p, depth)) {
          split(entries, p, depth);
        }
      }
      case PERMANENT -> drop(entries, c.reason(), ex, p, depth);
    }
  }

  /**
   * SINK-16: a 400 for some entries of the request. When the body identifies the entries Loki did
   * not store, only those are handled (SINK-13) and the rest count as delivered; otherwise the
   * request is split (SINK-10) and the fallback counted.
   */
  private void partiallyAccepted(
      List<LogEntry> entries, String reason, Exchange ex, SinkPush p, int depth)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    Optional<List<LogEntry>> refused =
        PartialAcceptance.rejected(ex.body(), ex.truncated(), entries, ex.unknownAtSend());
    if (refused.isEmpty() && distributorRefused(entries, ex, p, depth)) {
      return;
    }
    if (refused.isEmpty()) {
      metrics.lokiPartialAcceptanceFallbacks.add(1);
      metrics.lokiEntriesResent.add(entries.size(), BISECTION);
      log.atWarn()
          .addKeyValue("tenant", transport.tenant()) // SINK-20
          .addKeyValue("entries", entries.size())
          .addKeyValue("body", transport.logExcerpt(ex.body()))
          .log("loki partially accepted a push without naming every refused entry; splitting");
      split(entries, p, depth);
      return;
    }
    Set<LogEntry> out = Collections.newSetFromMap(new IdentityHashMap<>());
    out.addAll(refused.get());
    List<LogEntry> stored = entries.stream().filter(e -> !out.contains(e)).toList();
    p.marks.delivered(stored);
    streamMarks.delivered(stored);
    if (!p.restampPhase && restampable(reason)) {
      metrics.lokiEntriesResent.add(refused.get().size(), TARGETED);
    }
    rejected(refused.get(), reason, ex, p, depth + 1);
  }

  /**
   * SINK-19: a distributor 400 that accounts for the entries it refused. Loki stored the others:
   * they count as delivered and are never re-sent; identified entries are handled per reason
   * (SINK-13), entries refused for an unknown reason are dropped by count as {@code bad_request}.
   *
   * @return false when the body does not account for the refusals (the caller splits)
   */
  private boolean distributorRefused(List<LogEntry> entries, Exchange ex, SinkPush p, int depth)
      throws PermanentSinkException {
    Optional<DistributorRejections.Report> read =
        DistributorRejections.read(ex.body(), ex.truncated(), entries);
    if (read.isEmpty()) {
      return false;
    }
    DistributorRejections.Report r = read.get();
    List<LogEntry> settled = r.settled(entries);
    int unknown = r.unidentifiedCount();
    if (settled.isEmpty() && r.identified().size() == 1) {
      String reason = r.identified().keySet().iterator().next();
      rejected(entries, reason, ex, p, depth); // every entry, one reason: SINK-10 rule 1
      return true;
    }
    if (unknown == entries.size()) {
      drop(entries, DistributorRejections.UNKNOWN_REASON, ex, p, depth);
      return true;
    }
    p.marks.delivered(settled);
    streamMarks.delivered(
        settled.stream().filter(e -> !r.unidentified().containsKey(e.labels())).toList());
    if (unknown > 0) {
      p.marks.dropUnidentified(DistributorRejections.UNKNOWN_REASON, unknown);
      log.atWarn()
          .addKeyValue("tenant", transport.tenant()) // SINK-20
          .addKeyValue("status", ex.status())
          .addKeyValue("reason", DistributorRejections.UNKNOWN_REASON)
          .addKeyValue("entries", unknown)
          .addKeyValue("body", transport.logExcerpt(ex.body()))
          .log("loki refused entries without naming which; the rest was stored; dropping by count");
    }
    for (Map.Entry<String, List<LogEntry>> e : r.identified().entrySet()) {
      if (!p.restampPhase && restampable(e.getKey())) {
        metrics.lokiEntriesResent.add(e.getValue().size(), TARGETED);
      }
      rejected(e.getValue(), e.getKey(), ex, p, depth + 1);
    }
    return true;
  }

  private boolean restampable(String reason) {
    return settings.lateEntries() == LokiSinkSettings.LateEntries.RESTAMP
        && (reason.equals(TOO_FAR_BEHIND) || reason.equals(TOO_OLD) || reason.equals(TOO_NEW));
  }

  private void split(List<LogEntry> entries, SinkPush p, int depth)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    int half = entries.size() / 2;
    List<LogEntry> left = entries.subList(0, half);
    List<LogEntry> right = entries.subList(half, entries.size());
    Exchange l = exchange(left, p);
    if (depth == 0 && isGenericBadRequest(l)) {
      Exchange r = exchange(right, p);
      if (isGenericBadRequest(r) && l.body().equals(r.body())) {
        throw fail(
            "loki answered both halves of a split with the same 400: configuration outage",
            400,
            l.body());
      }
      process(left, l, p, depth + 1);
      process(right, r, p, depth + 1);
      return;
    }
    process(left, l, p, depth + 1);
    process(right, exchange(right, p), p, depth + 1);
  }

  private static boolean isGenericBadRequest(Exchange ex) {
    return ex.status() == 400 && ex.classification().kind() == Kind.SPLITTABLE;
  }

  /** SINK-13: too-far-behind, too-old and too-new entries are restamped; the rest dropped. */
  private void rejected(List<LogEntry> entries, String reason, Exchange ex, SinkPush p, int depth)
      throws PermanentSinkException {
    if (!p.restampPhase && restampable(reason)) {
      p.marks.restamp(entries, restamper.restamp(entries));
      metrics.lokiEntriesRestamped.add(
          entries.size(),
          Attributes.of(Sf2lokiMetrics.REASON, reason, Sf2lokiMetrics.STAGE, "rejected"));
      log.atInfo()
          .addKeyValue("status", ex.status())
          .addKeyValue("reason", reason)
          .addKeyValue("entries", entries.size())
          .addKeyValue("body", transport.logExcerpt(ex.body()))
          .log("loki rejected late entries; restamping them");
      return;
    }
    drop(entries, reason, ex, p, depth);
  }

  /**
   * SINK-13: pushes the batch's restamped entries not yet delivered, in follow-up requests of at
   * most {@code maxEntries} entries, each closed once Σ(line bytes + 64) reaches {@code maxBytes}.
   * Rejections drop (never restamp again); a retryable failure propagates with the marks kept.
   */
  private void pushRestamped(SinkPush p)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    List<LogEntry> pending = p.marks.pendingRestamps();
    if (pending.isEmpty()) {
      return;
    }
    p.restampPhase = true;
    for (List<LogEntry> chunk :
        RequestPlan.chunks(pending, settings.maxEntries(), settings.maxBytes())) {
      process(chunk, exchange(chunk, p), p, 0);
    }
  }

  private void drop(List<LogEntry> entries, String reason, Exchange ex, SinkPush p, int depth)
      throws PermanentSinkException {
    if (depth == 0 && p.wholeBatch && !p.restampPhase) {
      throw new PermanentSinkException(
          "loki rejected the batch permanently: HTTP " + ex.status() + " (" + reason + ")",
          ex.status(),
          reason,
          excerpt(ex.body()));
    }
    p.marks.drop(entries, reason);
    log.atWarn()
        .addKeyValue("tenant", transport.tenant()) // SINK-20
        .addKeyValue("status", ex.status())
        .addKeyValue("reason", reason)
        .addKeyValue("entries", entries.size())
        .addKeyValue("restamped", p.restampPhase)
        .addKeyValue("body", transport.logExcerpt(ex.body()))
        .log("loki rejected entries permanently; dropping them");
  }

  /**
   * Encodes and sends one request with the request retries of SINK-9 and, under {@code auto}, the
   * one-time structured-metadata fallback of SINK-12.
   */
  private Exchange exchange(List<LogEntry> entries, SinkPush p)
      throws RetryableSinkException, InterruptedException {
    Set<Map<String, String>> unknown = new HashSet<>();
    for (LogEntry e : entries) {
      if (!streamMarks.known(e.labels())) {
        unknown.add(e.labels());
      }
    }
    boolean withMetadata = metadataEnabled();
    Exchange ex = transport.send(transport.encode(entries, withMetadata), p, unknown);
    if (withMetadata
        && ex.classification().kind() == Kind.METADATA_REFUSED
        && settings.structuredMetadata() == MetadataMode.AUTO) {
      if (metadataDisabled.compareAndSet(false, true)) {
        metrics.lokiStructuredMetadataEnabled.set(0);
        log.atWarn()
            .addKeyValue("body", transport.logExcerpt(ex.body()))
            .log("loki rejects structured metadata; sending entries without it");
      }
      ex = transport.send(transport.encode(entries, false), p, unknown);
    }
    return ex;
  }

  /** Delta-seconds {@code Retry-After}; HTTP-date and garbage are ignored (zero). */
  static Duration retryAfter(String header) {
    return RetryAfter.parse(header);
  }

  private RetryableSinkException fail(String message, int status, String body) {
    return transport.fail(message, status, body, null, Duration.ZERO);
  }

  private static String excerpt(String body) {
    return LokiTransport.excerpt(body);
  }
}
