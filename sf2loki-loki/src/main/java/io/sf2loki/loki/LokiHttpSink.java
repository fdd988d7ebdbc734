package io.sf2loki.loki;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.LokiResponses.Classification;
import io.sf2loki.loki.LokiResponses.Kind;
import io.sf2loki.loki.encode.EncodedRequest;
import io.sf2loki.loki.encode.LokiEncoder;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes batches to Loki's HTTP push API (SPEC SINK-1…SINK-13).
 *
 * <ul>
 *   <li>Headers (SINK-2): {@code Authorization: Basic base64("<tenant or empty>:<token>")} when an
 *       auth token is set, else {@code X-Scope-OrgID: <tenant>} when a tenant is set; always {@code
 *       User-Agent: sf2loki/<version>}, {@code Content-Type} and, when compressed, {@code
 *       Content-Encoding}.
 *   <li>Transport (SINK-3): one JDK {@link HttpClient} (HTTP/1.1, redirects never followed,
 *       connections reused, virtual-thread executor); connect/request timeouts from the settings.
 *   <li>Classification (SINK-8), in-sink retries for 429/5xx/transport errors (SINK-9: at most 5
 *       attempts, jittered exponential waits, {@code Retry-After} delta-seconds honoured, 60 s
 *       cap), 400/413 splitting with the split-storm guard (SINK-10), structured-metadata modes and
 *       the {@code auto} fallback (SINK-12).
 * </ul>
 *
 * <p>Per-entry rejections (SINK-8 / SINK-10 rule 1, SINK-13): entries rejected as {@code too_new}
 * or {@code line_too_long} are dropped with their reason. Entries rejected as {@code
 * too_far_behind} or {@code too_old} are dropped too under {@link
 * LokiSinkSettings.LateEntries#DROP}; under {@link LokiSinkSettings.LateEntries#RESTAMP} (default)
 * they are restamped once ({@link Restamper}: now, strictly increasing per stream, {@code
 * late="true"}, metadata {@code event_time} = the original timestamp, line unchanged), counted in
 * {@code sf2loki_loki_entries_restamped{reason}} and pushed in follow-up requests after the batch's
 * own requests, split to {@link LokiSinkSettings#maxEntries()} / {@link
 * LokiSinkSettings#maxBytes()} (Σ line bytes + 64, PIPE-5). A restamped entry that Loki rejects
 * again, for any permanent or per-entry reason, is dropped under that new reason; it is never
 * restamped twice.
 *
 * <p>Entries dropped, restamped or delivered in restamped form during a push that then fails
 * retryably are remembered for that {@link Batch} instance (by identity, for the last few batches):
 * its next attempt excludes them, re-sends restamped entries not yet delivered in the same
 * restamped form (same timestamp), and reports the drops once, so nothing is sent, counted or
 * restamped twice (SINK-10).
 *
 * <p>Metrics recorded here: {@code sf2loki_loki_bytes_pushed} (body bytes of every accepted
 * request), {@code sf2loki_loki_structured_metadata_enabled} and {@code
 * sf2loki_loki_entries_restamped{reason}} (when an entry is restamped). Drops are returned in
 * {@link PushResult#droppedByReason()} (or as {@link PermanentSinkException}) for the pipeline to
 * count.
 *
 * <p>Thread-safe: both lanes may push concurrently.
 */
public final class LokiHttpSink implements Sink {
  private static final Logger log = LoggerFactory.getLogger(LokiHttpSink.class);

  /** SINK-9: attempts per request for 429/5xx/transport outcomes. */
  public static final int MAX_ATTEMPTS = 5;

  private static final Duration MIN_WAIT = Duration.ofMillis(500);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
  private static final Duration MAX_WAIT = Duration.ofSeconds(60);
  private static final int REMEMBERED_BATCHES = 8;
  private static final int BODY_EXCERPT = 512;
  private static final String TOO_FAR_BEHIND = "too_far_behind";
  private static final String TOO_OLD = "too_old";

  /** PIPE-5: per-entry overhead added to the line bytes when sizing a request. */
  private static final int ENTRY_OVERHEAD_BYTES = 64;

  private final LokiSinkSettings settings;
  private final Sf2lokiMetrics metrics;
  private final Sleeper sleeper;
  private final RandomGenerator random;
  private final LokiEncoder encoder;
  private final Executor cpu;
  private final ExecutorService executor;
  private final HttpClient client;
  private final String authorization;
  private final StopSignal closed = new StopSignal();
  private final AtomicBoolean metadataDisabled = new AtomicBoolean();
  private final AtomicLong failureStreak = new AtomicLong();
  private final Restamper restamper;

  /** Guarded by itself: drops of batches whose last push failed retryably (SINK-10). */
  private final Deque<Marks> pendingMarks = new ArrayDeque<>();

  /**
   * Creates the sink and its HTTP client.
   *
   * @param settings URL, identity, encoding, timeouts
   * @param metrics the application instance's metrics
   * @param sleeper waits between in-sink retries (SINK-9); tests pass a recording fake
   * @param random jitter source for retry waits; accessed under its own lock, so any generator
   *     works
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
   * @param sleeper waits between in-sink retries (SINK-9)
   * @param random jitter source for retry waits
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
    this.cpu = cpuExecutor;
    this.settings = settings;
    this.metrics = metrics;
    this.sleeper = sleeper;
    this.random = random;
    this.encoder = LokiEncoder.of(settings.encoding(), settings.compression());
    this.executor = Executors.newVirtualThreadPerTaskExecutor();
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(settings.connectTimeout())
            .executor(executor)
            .build();
    this.authorization =
        settings.authToken() == null
            ? null
            : "Basic "
                + Base64.getEncoder()
                    .encodeToString(
                        ((settings.tenantId() == null ? "" : settings.tenantId())
                                + ":"
                                + settings.authToken())
                            .getBytes(StandardCharsets.UTF_8));
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
   * Pushes the real entries of {@code batch} (SINK-8…SINK-12), with in-sink retry waits that end
   * when {@code stop} fires (the push then fails with {@link RetryableSinkException}, PIPE-14).
   *
   * @param batch the batch; checkpoint-only entries are ignored
   * @param singleAttempt one attempt per request, no in-sink retries (after the term's stop)
   * @param stop the term's stop signal
   * @return body bytes of the accepted requests and the entries dropped per reason (including those
   *     dropped by an earlier, retryably failed push of the same batch instance)
   * @throws RetryableSinkException nothing (more) was stored; push the same batch again
   * @throws PermanentSinkException the whole batch was rejected by one permanent response: 422, a
   *     400/413 on a single-entry batch, or a 400 rejecting every entry for one per-entry reason
   *     ({@code reason()} is the drop reason)
   * @throws InterruptedException if the thread is interrupted
   */
  @Override
  public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    List<LogEntry> all = batch.realEntries();
    Marks marks = takeMarks(batch);
    List<LogEntry> entries = marks.isEmpty() ? all : marks.remaining(all);
    Push p = new Push(singleAttempt, marks, marks.isEmpty(), stop);
    try {
      if (!entries.isEmpty()) {
        Exchange ex = exchange(entries, p);
        process(entries, ex, p, 0);
      }
      pushRestamped(p);
    } catch (RetryableSinkException e) {
      if (!marks.isEmpty()) {
        rememberMarks(marks);
      }
      throw e;
    }
    return new PushResult(p.bytes, marks.counts);
  }

  /** Stops in-sink retry waits (a waiting push fails retryably) and closes the HTTP client. */
  @Override
  public void close() {
    closed.stop();
    client.close();
    executor.close();
  }

  // ---------------------------------------------------------------- request handling

  private void process(List<LogEntry> entries, Exchange ex, Push p, int depth)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    int n = entries.size();
    Classification c = ex.classification;
    switch (c.kind()) {
      case SUCCESS -> {
        if (p.restampPhase) {
          p.marks.delivered(entries);
        }
        p.bytes += ex.bodyBytes;
        metrics.lokiBytesPushed.add(ex.bodyBytes);
        long streak = failureStreak.getAndSet(0);
        if (streak > 0) {
          log.atInfo().addKeyValue("failures", streak).log("loki push recovered");
        }
      }
      case RETRYABLE_NOW, UNEXPECTED, RETRY_IN_SINK ->
          throw fail(
              c.kind() == Kind.UNEXPECTED
                  ? "unexpected HTTP " + ex.status
                  : "loki push not stored: HTTP " + ex.status,
              ex.status,
              ex.body);
      case METADATA_REFUSED ->
          throw fail("loki refuses structured metadata: configuration outage", ex.status, ex.body);
      case REQUEST_WIDE ->
          throw fail("loki rejected the request as a whole: configuration outage", 400, ex.body);
      case PER_ENTRY -> {
        if (n == 1 || LokiResponses.coversAll(ex.body, n)) {
          rejected(entries, c.reason(), ex, p, depth);
        } else {
          split(entries, p, depth);
        }
      }
      case SPLITTABLE -> {
        if (n == 1) {
          drop(entries, c.reason(), ex, p, depth);
        } else {
          split(entries, p, depth);
        }
      }
      case PERMANENT -> drop(entries, c.reason(), ex, p, depth);
    }
  }

  private void split(List<LogEntry> entries, Push p, int depth)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    int half = entries.size() / 2;
    List<LogEntry> left = entries.subList(0, half);
    List<LogEntry> right = entries.subList(half, entries.size());
    Exchange l = exchange(left, p);
    if (depth == 0 && isGenericBadRequest(l)) {
      Exchange r = exchange(right, p);
      if (isGenericBadRequest(r) && l.body.equals(r.body)) {
        throw fail(
            "loki answered both halves of a split with the same 400: configuration outage",
            400,
            l.body);
      }
      process(left, l, p, depth + 1);
      process(right, r, p, depth + 1);
      return;
    }
    process(left, l, p, depth + 1);
    process(right, exchange(right, p), p, depth + 1);
  }

  private static boolean isGenericBadRequest(Exchange ex) {
    return ex.status == 400 && ex.classification.kind() == Kind.SPLITTABLE;
  }

  /** SINK-13: too-far-behind / too-old entries of the batch are restamped; the rest dropped. */
  private void rejected(List<LogEntry> entries, String reason, Exchange ex, Push p, int depth)
      throws PermanentSinkException {
    if (!p.restampPhase
        && settings.lateEntries() == LokiSinkSettings.LateEntries.RESTAMP
        && (reason.equals(TOO_FAR_BEHIND) || reason.equals(TOO_OLD))) {
      p.marks.restamp(entries, restamper.restamp(entries));
      metrics.lokiEntriesRestamped.add(
          entries.size(), Attributes.of(Sf2lokiMetrics.REASON, reason));
      log.atInfo()
          .addKeyValue("status", ex.status)
          .addKeyValue("reason", reason)
          .addKeyValue("entries", entries.size())
          .addKeyValue("body", excerpt(ex.body))
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
  private void pushRestamped(Push p)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    List<LogEntry> pending = p.marks.pendingRestamps();
    if (pending.isEmpty()) {
      return;
    }
    p.restampPhase = true;
    int from = 0;
    while (from < pending.size()) {
      int to = from;
      long bytes = 0;
      while (to < pending.size()
          && to - from < settings.maxEntries()
          && (to == from || bytes < settings.maxBytes())) {
        bytes += pending.get(to).lineBytes() + ENTRY_OVERHEAD_BYTES;
        to++;
      }
      List<LogEntry> chunk = pending.subList(from, to);
      process(chunk, exchange(chunk, p), p, 0);
      from = to;
    }
  }

  private void drop(List<LogEntry> entries, String reason, Exchange ex, Push p, int depth)
      throws PermanentSinkException {
    if (depth == 0 && p.wholeBatch && !p.restampPhase) {
      throw new PermanentSinkException(
          "loki rejected the batch permanently: HTTP " + ex.status + " (" + reason + ")",
          ex.status,
          reason);
    }
    p.marks.add(entries, reason);
    log.atWarn()
        .addKeyValue("status", ex.status)
        .addKeyValue("reason", reason)
        .addKeyValue("entries", entries.size())
        .addKeyValue("restamped", p.restampPhase)
        .addKeyValue("body", excerpt(ex.body))
        .log("loki rejected entries permanently; dropping them");
  }

  /**
   * Encodes and sends one request with the in-sink retries of SINK-9 and, under {@code auto}, the
   * one-time structured-metadata fallback of SINK-12.
   */
  private Exchange exchange(List<LogEntry> entries, Push p)
      throws RetryableSinkException, InterruptedException {
    boolean withMetadata = metadataEnabled();
    Exchange ex = send(encode(entries, withMetadata), p);
    if (withMetadata
        && ex.classification.kind() == Kind.METADATA_REFUSED
        && settings.structuredMetadata() == MetadataMode.AUTO) {
      if (metadataDisabled.compareAndSet(false, true)) {
        metrics.lokiStructuredMetadataEnabled.set(0);
        log.atWarn()
            .addKeyValue("body", excerpt(ex.body))
            .log("loki rejects structured metadata; sending entries without it");
      }
      ex = send(encode(entries, false), p);
    }
    return ex;
  }

  /** Encodes on the CPU executor (PIPE-26); the caller's wait is interruptible. */
  private EncodedRequest encode(List<LogEntry> entries, boolean withMetadata)
      throws InterruptedException {
    CompletableFuture<EncodedRequest> f =
        CompletableFuture.supplyAsync(() -> encoder.encode(entries, withMetadata), cpu);
    try {
      return f.get();
    } catch (InterruptedException e) {
      f.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private Exchange send(EncodedRequest req, Push p)
      throws RetryableSinkException, InterruptedException {
    int attempts = p.singleAttempt ? 1 : MAX_ATTEMPTS;
    HttpRequest request = request(req);
    for (int attempt = 1; ; attempt++) {
      int status = 0;
      String body = "";
      Duration retryAfter = Duration.ZERO;
      IOException transport = null;
      try {
        HttpResponse<byte[]> resp = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        status = resp.statusCode();
        body = new String(resp.body(), StandardCharsets.UTF_8);
        Classification c = LokiResponses.classify(status, body);
        if (c.kind() != Kind.RETRY_IN_SINK) {
          return new Exchange(status, body, c, req.body().length);
        }
        retryAfter = retryAfter(resp.headers().firstValue("Retry-After").orElse(null));
      } catch (IOException e) {
        transport = e;
      }
      String what =
          transport == null
              ? "HTTP " + status
              : "transport error: " + transport.getClass().getSimpleName();
      if (attempt >= attempts) {
        throw fail(
            "loki push failed after " + attempt + " attempt(s): " + what, status, body, transport);
      }
      Duration wait = backoff(attempt, retryAfter);
      log.atWarn()
          .addKeyValue("attempt", attempt)
          .addKeyValue("status", status)
          .addKeyValue("wait_ms", wait.toMillis())
          .addKeyValue("error", what)
          .log("loki push failed; retrying");
      if (!sleeper.sleep(wait, p.stop) || closed.isStopped()) {
        throw fail("loki push retry aborted by stop", status, body, transport);
      }
    }
  }

  private HttpRequest request(EncodedRequest req) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(settings.url())
            .timeout(settings.requestTimeout())
            .header("Content-Type", req.contentType())
            .header("User-Agent", "sf2loki/" + settings.version())
            .POST(HttpRequest.BodyPublishers.ofByteArray(req.body()));
    if (req.contentEncoding() != null) {
      b.header("Content-Encoding", req.contentEncoding());
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    } else if (settings.tenantId() != null) {
      b.header("X-Scope-OrgID", settings.tenantId());
    }
    return b.build();
  }

  /**
   * SINK-9: the wait before retry {@code k} (1-based): uniform in [0.5 s, min(30 s, 2^(k−1) s)],
   * raised to {@code retryAfter}, capped at 60 s.
   */
  Duration backoff(int k, Duration retryAfter) {
    long upperNanos =
        Math.min(MAX_BACKOFF.toNanos(), Duration.ofSeconds(1L << Math.min(k - 1, 20)).toNanos());
    long lowerNanos = MIN_WAIT.toNanos();
    double r;
    synchronized (random) {
      r = random.nextDouble();
    }
    long nanos = lowerNanos + (long) (r * Math.max(0, upperNanos - lowerNanos));
    Duration wait = Duration.ofNanos(nanos);
    if (retryAfter.compareTo(wait) > 0) {
      wait = retryAfter;
    }
    return wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait;
  }

  /** Delta-seconds {@code Retry-After}; HTTP-date and garbage are ignored (zero). */
  static Duration retryAfter(String header) {
    if (header == null) {
      return Duration.ZERO;
    }
    String v = header.strip();
    if (v.isEmpty() || v.length() > 9 || !v.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      return Duration.ZERO;
    }
    return Duration.ofSeconds(Long.parseLong(v));
  }

  private RetryableSinkException fail(String message, int status, String body) {
    return fail(message, status, body, null);
  }

  private RetryableSinkException fail(String message, int status, String body, Throwable cause) {
    long streak = failureStreak.incrementAndGet();
    if (streak == 1 || streak % 10 == 0) {
      log.atError()
          .addKeyValue("status", status)
          .addKeyValue("consecutive_failures", streak)
          .addKeyValue("body", excerpt(body))
          .setCause(cause)
          .log(message);
    }
    return new RetryableSinkException(message, status, cause);
  }

  private static String excerpt(String body) {
    String s = body == null ? "" : body.strip();
    return s.length() <= BODY_EXCERPT ? s : s.substring(0, BODY_EXCERPT) + "…";
  }

  // ---------------------------------------------------------------- marks (SINK-10)

  private Marks takeMarks(Batch batch) {
    synchronized (pendingMarks) {
      for (var it = pendingMarks.iterator(); it.hasNext(); ) {
        Marks m = it.next();
        if (m.batch == batch) {
          it.remove();
          return m;
        }
      }
    }
    return new Marks(batch);
  }

  private void rememberMarks(Marks marks) {
    synchronized (pendingMarks) {
      pendingMarks.addFirst(marks);
      while (pendingMarks.size() > REMEMBERED_BATCHES) {
        pendingMarks.removeLast();
      }
    }
  }

  /**
   * What happened to entries of one batch so far (SINK-10, SINK-13), by identity: originals dropped
   * (with counts per reason), originals restamped (with their restamped form), restamped forms
   * delivered. Confined to the pushing thread while a push runs.
   */
  private static final class Marks {
    final Batch batch;
    final Set<LogEntry> dropped = Collections.newSetFromMap(new IdentityHashMap<>());
    final Map<String, Integer> counts = new HashMap<>();

    /** Restamped form → original. */
    final Map<LogEntry, LogEntry> originalOf = new IdentityHashMap<>();

    /** Restamped forms in restamp order. */
    final List<LogEntry> restamped = new ArrayList<>();

    final Set<LogEntry> restampedOriginals = Collections.newSetFromMap(new IdentityHashMap<>());
    final Set<LogEntry> delivered = Collections.newSetFromMap(new IdentityHashMap<>());

    Marks(Batch batch) {
      this.batch = batch;
    }

    boolean isEmpty() {
      return dropped.isEmpty() && restamped.isEmpty();
    }

    /** Marks {@code entries} (originals or restamped forms) dropped under {@code reason}. */
    void add(List<LogEntry> entries, String reason) {
      int added = 0;
      for (LogEntry e : entries) {
        if (dropped.add(originalOf.getOrDefault(e, e))) {
          added++;
        }
      }
      counts.merge(reason, added, Integer::sum);
    }

    /** Records the restamped forms ({@code forms}, index-aligned) of {@code originals}. */
    void restamp(List<LogEntry> originals, List<LogEntry> forms) {
      for (int i = 0; i < originals.size(); i++) {
        LogEntry o = originals.get(i);
        if (restampedOriginals.add(o)) {
          originalOf.put(forms.get(i), o);
          restamped.add(forms.get(i));
        }
      }
    }

    /** Marks restamped forms as delivered. */
    void delivered(List<LogEntry> forms) {
      delivered.addAll(forms);
    }

    /** Restamped forms neither delivered nor dropped, in restamp order. */
    List<LogEntry> pendingRestamps() {
      List<LogEntry> out = new ArrayList<>();
      for (LogEntry r : restamped) {
        if (!delivered.contains(r) && !dropped.contains(originalOf.get(r))) {
          out.add(r);
        }
      }
      return out;
    }

    /** Originals neither dropped nor restamped, in batch order. */
    List<LogEntry> remaining(List<LogEntry> all) {
      return all.stream()
          .filter(e -> !dropped.contains(e) && !restampedOriginals.contains(e))
          .toList();
    }
  }

  /** State of one {@link #push} call. */
  private static final class Push {
    final boolean singleAttempt;
    final Marks marks;
    final boolean wholeBatch;
    final StopSignal stop;
    long bytes;

    /** True while the batch's restamped entries are pushed (SINK-13). */
    boolean restampPhase;

    Push(boolean singleAttempt, Marks marks, boolean wholeBatch, StopSignal stop) {
      this.stop = stop;
      this.singleAttempt = singleAttempt;
      this.marks = marks;
      this.wholeBatch = wholeBatch;
    }
  }

  private record Exchange(int status, String body, Classification classification, int bodyBytes) {}
}
