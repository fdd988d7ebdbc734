package io.sf2loki.sim.loki;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sf2loki.sim.http.LoopbackServer;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process Loki-compatible push receiver (FEAT-17, FEAT-18) on a JDK {@link HttpServer} bound
 * to {@code 127.0.0.1} (ephemeral port by default).
 *
 * <p>{@code POST /loki/api/v1/push} accepts protobuf + raw snappy (SINK-4) and JSON, optionally
 * gzip/deflate (SINK-5), and validates like Loki's distributor (see {@code loki_errors.md}): label
 * string syntax and names, at most {@code maxLabelNames} labels, duplicate names, line size, a
 * present timestamp, and optionally structured-metadata refusal, maximum sample age, creation grace
 * period and a per-stream out-of-order window. Valid entries are stored even when others of the
 * same request fail (partial acceptance); failures answer 400 {@code text/plain} with Loki's
 * grouped message — or, with {@link Builder#ingesterErrors(boolean)}, out-of-order rejections in
 * the ingester's {@code entry with timestamp … ignored, reason: '…'} / {@code total ignored: k out
 * of n for stream: …} form, which then wins over distributor errors as in Loki. Times in the
 * too-old and too-far-behind messages are RFC 3339 with whole seconds (Go's {@code time.RFC3339}).
 * Zero streams answer 422. Success answers 204. Within one stream an entry with the same nanosecond
 * timestamp and line as a stored one is dropped (Loki's duplicate collapse).
 *
 * <p>By default every stored entry and every request is kept for assertions; {@link
 * Builder#maxHistory(int)} bounds both for long runs ({@code sf2loki sim}), dropping the oldest.
 *
 * <p>{@code GET /ready} answers 200 {@code ready}. What is stored and recorded lives in a {@link
 * ReceiverStore}. Thread-safe; {@link #close()} stops everything.
 */
public final class LokiReceiver implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LokiReceiver.class);

  private final LoopbackServer server;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final LokiFaultSchedule faults = new LokiFaultSchedule();
  private final long maxBodyBytes;
  private final InstantSource clock;
  private final ReceiverStore store;

  private LokiReceiver(Builder b) throws IOException {
    EntryRules rules =
        new EntryRules(
            b.maxLineBytes,
            b.allowStructuredMetadata,
            b.rejectOlderThan,
            b.creationGracePeriod,
            faults);
    this.store =
        new ReceiverStore(
            rules, b.maxLabelNames, b.outOfOrderWindow, b.ingesterErrors, b.maxHistory);
    this.maxBodyBytes = b.maxBodyBytes;
    this.clock = b.clock;
    this.server =
        new LoopbackServer(
            b.port,
            b.handlerThreads,
            "sim-loki-",
            Map.of("/loki/api/v1/push", (HttpHandler) this::push, "/ready", this::ready));
    log.atInfo().addKeyValue("url", url()).log("sim loki receiver started");
  }

  /** A builder with Loki's defaults (256 KB lines, 15 label names, 100 MiB bodies). */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts a receiver with default settings. */
  public static LokiReceiver start() throws IOException {
    return builder().start();
  }

  // ---------------------------------------------------------------- public API

  /** Base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String url() {
    return "http://127.0.0.1:" + server.port();
  }

  /** {@code <url>/loki/api/v1/push}. */
  public String pushUrl() {
    return url() + "/loki/api/v1/push";
  }

  /** The bound port. */
  public int port() {
    return server.port();
  }

  /** The fault schedule; mutate it at any time. */
  public LokiFaultSchedule faults() {
    return faults;
  }

  /**
   * Push requests received (every status) since start or {@link #reset()}, including those no
   * longer kept by {@link Builder#maxHistory(int)}.
   */
  public int requestCount() {
    return (int) Math.min(Integer.MAX_VALUE, store.requestCount());
  }

  /**
   * The push requests kept, in arrival order: every one, or the newest {@link
   * Builder#maxHistory(int)}.
   */
  public List<RecordedRequest> requests() {
    return store.requests();
  }

  /** The label sets of every stream holding at least one kept entry, in first-seen order. */
  public List<Map<String, String>> streams() {
    return store.streams();
  }

  /**
   * Every kept entry (all, or the newest {@link Builder#maxHistory(int)}), in arrival order per
   * stream, streams in first-seen order.
   */
  public List<ReceivedEntry> entries() {
    return store.entries();
  }

  /**
   * Stored entries of streams whose labels contain every {@code matchers} pair exactly (an empty
   * map matches all).
   */
  public List<ReceivedEntry> entries(Map<String, String> matchers) {
    return store.entries(matchers);
  }

  /**
   * Number of entries stored (after duplicate collapse) since start or {@link #reset()}, including
   * those no longer kept by {@link Builder#maxHistory(int)}.
   */
  public long totalEntries() {
    return store.acceptedEntries();
  }

  /** Number of entries kept now ({@link #totalEntries()} without a history bound). */
  public long retainedEntries() {
    return store.retainedEntries();
  }

  /** Entries dropped as exact duplicates (same stream, nanosecond timestamp and line). */
  public long duplicatesDropped() {
    return store.duplicatesDropped();
  }

  /**
   * Entries received in decodable push requests, whatever was answered (stored, collapsed as
   * duplicates, refused, or answered by a scheduled fault), since start or {@link #reset()}: the
   * push amplification is this over the rows shipped.
   */
  public long receivedEntries() {
    return store.receivedEntries();
  }

  /** Forgets stored entries and recorded requests (faults are kept). */
  public void reset() {
    store.reset();
  }

  /** Stops the server and its handler threads. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.close();
  }

  // ---------------------------------------------------------------- handling

  private void ready(HttpExchange ex) throws IOException {
    try (ex) {
      ReceiverHttp.sendText(ex, 200, "ready");
    }
  }

  /** Per-request facts recorded with the answer. */
  private static final class Ctx {
    final Instant arrived;
    int entries;

    Ctx(Instant arrived) {
      this.arrived = arrived;
    }
  }

  private void push(HttpExchange ex) throws IOException {
    Ctx ctx = new Ctx(clock.instant());
    try (ex) {
      Map<String, List<String>> headers = new TreeMap<>();
      ex.getRequestHeaders()
          .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
      byte[] body;
      long limit = effectiveBodyLimit();
      try (InputStream in = ex.getRequestBody()) {
        body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, limit + 1));
        if (body.length > limit) {
          long total = body.length + ReceiverHttp.drain(in);
          respond(
              ctx,
              ex,
              headers,
              total,
              413,
              "request body too large: " + total + " bytes, limit: " + limit + " bytes",
              null);
          return;
        }
      }
      if (!ex.getRequestMethod().equals("POST")) {
        respond(ctx, ex, headers, body.length, 405, "method not allowed", null);
        return;
      }
      try {
        faults.awaitStall();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // closing: the exchange is closed unanswered
      }
      String scope = ex.getRequestHeaders().getFirst("X-Scope-OrgID");
      Optional<LokiFault> fault = faults.next(scope == null ? "fake" : scope);
      List<PushedStream> decoded;
      try {
        decoded =
            LokiPushDecoder.decode(
                body,
                ex.getRequestHeaders().getFirst("Content-Type"),
                ex.getRequestHeaders().getFirst("Content-Encoding"));
      } catch (LokiPushDecoder.MalformedPushException e) {
        if (fault.isPresent()) {
          LokiFault f = fault.get();
          respond(ctx, ex, headers, body.length, f.status(), f.body(), f.retryAfter());
          return;
        }
        respond(ctx, ex, headers, body.length, 400, e.getMessage(), null);
        return;
      }
      answer(ctx, ex, headers, body.length, decoded, fault);
    }
  }

  /** Counts a decoded push, then answers it: the fault, 422 without streams, or what Loki says. */
  private void answer(
      Ctx ctx,
      HttpExchange ex,
      Map<String, List<String>> headers,
      long bodyLength,
      List<PushedStream> decoded,
      Optional<LokiFault> fault)
      throws IOException {
    ctx.entries = decoded.stream().mapToInt(st -> st.entries().size()).sum();
    store.received(ctx.entries);
    if (fault.isPresent()) {
      LokiFault f = fault.get();
      respond(ctx, ex, headers, bodyLength, f.status(), f.body(), f.retryAfter());
      return;
    }
    if (decoded.isEmpty()) {
      respond(
          ctx,
          ex,
          headers,
          bodyLength,
          422,
          "error at least one valid stream is required for ingestion",
          null);
      return;
    }
    String tenant = ex.getRequestHeaders().getFirst("X-Scope-OrgID");
    List<String> errors = store.store(decoded, tenant == null ? "fake" : tenant, clock.instant());
    if (errors.size() == 1 && errors.get(0).startsWith(ReceiverStore.INGESTER_PREFIX)) {
      respond(
          ctx,
          ex,
          headers,
          bodyLength,
          400,
          errors.get(0).substring(ReceiverStore.INGESTER_PREFIX.length()),
          null);
    } else if (errors.isEmpty()) {
      respond(ctx, ex, headers, bodyLength, 204, "", null);
    } else {
      respond(ctx, ex, headers, bodyLength, 400, LokiMessages.group(errors), null);
    }
  }

  private long effectiveBodyLimit() {
    long f = faults.maxBodyBytes();
    return f >= 0 ? Math.min(f, maxBodyBytes) : maxBodyBytes;
  }

  private void respond(
      Ctx ctx,
      HttpExchange ex,
      Map<String, List<String>> headers,
      long bodyBytes,
      int status,
      String text,
      Duration retryAfter)
      throws IOException {
    store.record(
        new RecordedRequest(
            Map.copyOf(headers),
            bodyBytes,
            status,
            text,
            ctx.arrived,
            clock.instant(),
            ctx.entries,
            retryAfter == null ? Duration.ZERO : retryAfter));
    if (retryAfter != null) {
      ex.getResponseHeaders().set("Retry-After", Long.toString(retryAfter.toSeconds()));
    }
    if (status == 204) {
      ex.sendResponseHeaders(204, -1);
      return;
    }
    ReceiverHttp.sendText(ex, status, text + "\n");
  }

  // ---------------------------------------------------------------- builder

  /** Configures a {@link LokiReceiver}; defaults are Loki's where Loki has one. */
  public static final class Builder {
    private long maxLineBytes = 256 * 1024;
    private int maxLabelNames = 15;
    private long maxBodyBytes = 100L * 1024 * 1024;
    private boolean allowStructuredMetadata = true;
    private Duration rejectOlderThan;
    private Duration creationGracePeriod;
    private Duration outOfOrderWindow;
    private InstantSource clock = InstantSource.system();
    private boolean ingesterErrors;
    private int handlerThreads = 8;
    private int port;
    private int maxHistory;

    private Builder() {}

    /** Maximum line size in UTF-8 bytes (default 262144, Loki's 256KB; 0 = unlimited). */
    public Builder maxLineBytes(long bytes) {
      this.maxLineBytes = bytes;
      return this;
    }

    /** Maximum label names per stream (default 15). */
    public Builder maxLabelNames(int n) {
      this.maxLabelNames = n;
      return this;
    }

    /** Maximum compressed body size in bytes before 413 (default 100 MiB). */
    public Builder maxBodyBytes(long bytes) {
      this.maxBodyBytes = bytes;
      return this;
    }

    /** false refuses entries carrying structured metadata with Loki's 400 (SINK-12). */
    public Builder allowStructuredMetadata(boolean allow) {
      this.allowStructuredMetadata = allow;
      return this;
    }

    /** Rejects entries older than now − {@code age} ("timestamp too old"); default off. */
    public Builder rejectOlderThan(Duration age) {
      this.rejectOlderThan = age;
      return this;
    }

    /** Rejects entries newer than now + {@code grace} ("timestamp too new"); default off. */
    public Builder creationGracePeriod(Duration grace) {
      this.creationGracePeriod = grace;
      return this;
    }

    /**
     * Rejects entries older than the newest entry of their stream minus {@code window} ("entry too
     * far behind"; Loki's default is 1 h = max_chunk_age/2); default off.
     */
    public Builder outOfOrderWindow(Duration window) {
      this.outOfOrderWindow = window;
      return this;
    }

    /**
     * true reports out-of-order ("too far behind") rejections as Loki's ingester does ({@code entry
     * with timestamp <Go time> ignored, reason: '<message>',} lines, at most 10, then {@code user
     * '<tenant or fake>', total ignored: <k> out of <n> for stream: <labels>}, last failing stream
     * only), instead of among the distributor's grouped errors; default false.
     */
    public Builder ingesterErrors(boolean ingester) {
      this.ingesterErrors = ingester;
      return this;
    }

    /** Clock for the age checks (default system). */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /** Maximum concurrent requests (virtual threads; default 8). */
    public Builder handlerThreads(int n) {
      this.handlerThreads = LoopbackServer.requireHandlerThreads(n);
      return this;
    }

    /**
     * Keep at most {@code n} stored entries (over all streams) and {@code n} recorded requests,
     * dropping the oldest; counters ({@link LokiReceiver#totalEntries()}, {@link
     * LokiReceiver#requestCount()}) keep counting, the out-of-order window still uses each stream's
     * newest timestamp, and a dropped entry no longer collapses a duplicate. Default 0 = keep
     * everything.
     *
     * @throws IllegalArgumentException when {@code n} is negative
     */
    public Builder maxHistory(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("maxHistory must be >= 0");
      }
      this.maxHistory = n;
      return this;
    }

    /** Port on 127.0.0.1 (default 0 = ephemeral). */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /**
     * Binds and starts the receiver.
     *
     * @throws IOException when the port cannot be bound
     */
    public LokiReceiver start() throws IOException {
      return new LokiReceiver(this);
    }
  }
}
