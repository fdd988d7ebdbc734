package io.sf2loki.sim.loki;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sf2loki.sim.http.LoopbackServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
 * grouped message. Zero streams answer 422. Success answers 204. Within one stream an entry with
 * the same nanosecond timestamp and line as a stored one is dropped (Loki's duplicate collapse).
 *
 * <p>{@code GET /ready} answers 200 {@code ready}. Thread-safe; {@link #close()} stops everything.
 */
public final class LokiReceiver implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LokiReceiver.class);

  private final LoopbackServer server;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final LokiFaultSchedule faults = new LokiFaultSchedule();
  private final long maxLineBytes;
  private final int maxLabelNames;
  private final long maxBodyBytes;
  private final boolean allowStructuredMetadata;
  private final Duration rejectOlderThan;
  private final Duration creationGracePeriod;
  private final Duration outOfOrderWindow;
  private final InstantSource clock;

  private final Map<Map<String, String>, StreamStore> streams = new LinkedHashMap<>();
  private final List<RecordedRequest> requests = new ArrayList<>();
  private long duplicatesDropped;

  private static final class StreamStore {
    final List<ReceivedEntry> entries = new ArrayList<>();
    final Set<Key> keys = new HashSet<>();
    Instant newest;
  }

  private record Key(Instant ts, String line) {}

  private LokiReceiver(Builder b) throws IOException {
    this.maxLineBytes = b.maxLineBytes;
    this.maxLabelNames = b.maxLabelNames;
    this.maxBodyBytes = b.maxBodyBytes;
    this.allowStructuredMetadata = b.allowStructuredMetadata;
    this.rejectOlderThan = b.rejectOlderThan;
    this.creationGracePeriod = b.creationGracePeriod;
    this.outOfOrderWindow = b.outOfOrderWindow;
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

  /** Push requests received (every status). */
  public synchronized int requestCount() {
    return requests.size();
  }

  /** Every push request received, in arrival order. */
  public synchronized List<RecordedRequest> requests() {
    return List.copyOf(requests);
  }

  /** The label sets of every stream holding at least one entry, in first-seen order. */
  public synchronized List<Map<String, String>> streams() {
    return streams.keySet().stream().toList();
  }

  /** Every stored entry, in arrival order per stream, streams in first-seen order. */
  public synchronized List<ReceivedEntry> entries() {
    return streams.values().stream().flatMap(s -> s.entries.stream()).toList();
  }

  /**
   * Stored entries of streams whose labels contain every {@code matchers} pair exactly (an empty
   * map matches all).
   */
  public synchronized List<ReceivedEntry> entries(Map<String, String> matchers) {
    List<ReceivedEntry> out = new ArrayList<>();
    for (Map.Entry<Map<String, String>, StreamStore> e : streams.entrySet()) {
      if (e.getKey().entrySet().containsAll(matchers.entrySet())) {
        out.addAll(e.getValue().entries);
      }
    }
    return out;
  }

  /** Number of stored entries (after duplicate collapse). */
  public synchronized long totalEntries() {
    return streams.values().stream().mapToLong(s -> s.entries.size()).sum();
  }

  /** Entries dropped as exact duplicates (same stream, nanosecond timestamp and line). */
  public synchronized long duplicatesDropped() {
    return duplicatesDropped;
  }

  /** Forgets stored entries and recorded requests (faults are kept). */
  public synchronized void reset() {
    streams.clear();
    requests.clear();
    duplicatesDropped = 0;
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
      sendText(ex, 200, "ready");
    }
  }

  private void push(HttpExchange ex) throws IOException {
    try (ex) {
      Map<String, List<String>> headers = new TreeMap<>();
      ex.getRequestHeaders()
          .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
      byte[] body;
      long limit = effectiveBodyLimit();
      try (InputStream in = ex.getRequestBody()) {
        body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, limit + 1));
        if (body.length > limit) {
          long total = body.length + drain(in);
          respond(
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
        respond(ex, headers, body.length, 405, "method not allowed", null);
        return;
      }
      Optional<LokiFault> fault = faults.next();
      if (fault.isPresent()) {
        LokiFault f = fault.get();
        respond(ex, headers, body.length, f.status(), f.body(), f.retryAfter());
        return;
      }
      List<PushedStream> decoded;
      try {
        decoded =
            LokiPushDecoder.decode(
                body,
                ex.getRequestHeaders().getFirst("Content-Type"),
                ex.getRequestHeaders().getFirst("Content-Encoding"));
      } catch (LokiPushDecoder.MalformedPushException e) {
        respond(ex, headers, body.length, 400, e.getMessage(), null);
        return;
      }
      if (decoded.isEmpty()) {
        respond(
            ex,
            headers,
            body.length,
            422,
            "error at least one valid stream is required for ingestion",
            null);
        return;
      }
      List<String> errors = store(decoded);
      if (errors.isEmpty()) {
        respond(ex, headers, body.length, 204, "", null);
      } else {
        respond(ex, headers, body.length, 400, group(errors), null);
      }
    }
  }

  private long effectiveBodyLimit() {
    long f = faults.maxBodyBytes();
    return f >= 0 ? Math.min(f, maxBodyBytes) : maxBodyBytes;
  }

  private static long drain(InputStream in) throws IOException {
    long n = 0;
    byte[] buf = new byte[65536];
    int r;
    while ((r = in.read(buf)) >= 0) {
      n += r;
    }
    return n;
  }

  /** Validates and stores; returns the validation error messages (empty = all accepted). */
  private List<String> store(List<PushedStream> decoded) {
    List<String> errors = new ArrayList<>();
    Instant now = clock.instant();
    synchronized (this) {
      for (PushedStream s : decoded) {
        Map<String, String> labels;
        try {
          labels = LokiLabels.parse(s.labels());
        } catch (LokiLabels.LabelParseException e) {
          errors.add("error parsing labels '" + s.labels() + "' with error: " + e.getMessage());
          continue;
        } catch (LokiLabels.DuplicateLabelException e) {
          errors.add("stream '" + s.labels() + "' has duplicate label name: '" + e.name + "'");
          continue;
        }
        if (labels.isEmpty()) {
          errors.add("error at least one label pair is required per stream");
          continue;
        }
        String rendered = LokiLabels.render(labels);
        if (labels.size() > maxLabelNames) {
          errors.add(
              "entry for stream '"
                  + rendered
                  + "' has "
                  + labels.size()
                  + " label names; limit "
                  + maxLabelNames);
          continue;
        }
        Map<String, String> key = Collections.unmodifiableMap(new TreeMap<>(labels));
        for (PushedEntry e : s.entries()) {
          String err = validate(e, rendered, key, now);
          if (err != null) {
            errors.add(err);
            continue;
          }
          StreamStore st = streams.computeIfAbsent(key, k -> new StreamStore());
          if (!st.keys.add(new Key(e.timestamp(), e.line()))) {
            duplicatesDropped++;
            continue;
          }
          st.entries.add(new ReceivedEntry(key, e.timestamp(), e.line(), e.structuredMetadata()));
          if (st.newest == null || e.timestamp().isAfter(st.newest)) {
            st.newest = e.timestamp();
          }
        }
      }
    }
    return errors;
  }

  private String validate(PushedEntry e, String stream, Map<String, String> key, Instant now) {
    if (e.timestamp() == null) {
      return "entry for stream '" + stream + "' has no timestamp";
    }
    int len = e.line().getBytes(StandardCharsets.UTF_8).length;
    if (maxLineBytes > 0 && len > maxLineBytes) {
      return "max entry size '"
          + maxLineBytes
          + "' bytes exceeded for stream '"
          + stream
          + "' while adding an entry with length '"
          + len
          + "' bytes";
    }
    String marker = faults.markerRejection(e.line(), stream);
    if (marker != null) {
      return marker;
    }
    if (!allowStructuredMetadata && !e.structuredMetadata().isEmpty()) {
      return "stream '"
          + stream
          + "' includes structured metadata, but this feature is"
          + " disallowed. Please see `limits_config.allow_structured_metadata` or contact your"
          + " Loki administrator to enable it";
    }
    if (rejectOlderThan != null && e.timestamp().isBefore(now.minus(rejectOlderThan))) {
      return "entry for stream '"
          + stream
          + "' has timestamp too old: "
          + e.timestamp()
          + ", oldest acceptable timestamp is: "
          + now.minus(rejectOlderThan);
    }
    if (creationGracePeriod != null && e.timestamp().isAfter(now.plus(creationGracePeriod))) {
      return "entry for stream '" + stream + "' has timestamp too new: " + e.timestamp();
    }
    if (outOfOrderWindow != null) {
      StreamStore st = streams.get(key);
      if (st != null && st.newest != null) {
        Instant oldest = st.newest.minus(outOfOrderWindow);
        if (e.timestamp().isBefore(oldest)) {
          return "entry too far behind, entry timestamp is: "
              + e.timestamp()
              + ", oldest acceptable timestamp is: "
              + oldest;
        }
      }
    }
    return null;
  }

  /** Loki's GroupedErrors text: "; "-joined, with "n errors like: " when grouped. */
  static String group(List<String> errors) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    errors.forEach(m -> counts.merge(m, 1, Integer::sum));
    if (counts.size() == 1 && errors.size() == 1) {
      return errors.get(0);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((m, n) -> parts.add(n + " errors like: " + m));
    return String.join("; ", parts);
  }

  private void respond(
      HttpExchange ex,
      Map<String, List<String>> headers,
      long bodyBytes,
      int status,
      String text,
      Duration retryAfter)
      throws IOException {
    synchronized (this) {
      requests.add(new RecordedRequest(Map.copyOf(headers), bodyBytes, status, text));
    }
    if (retryAfter != null) {
      ex.getResponseHeaders().set("Retry-After", Long.toString(retryAfter.toSeconds()));
    }
    if (status == 204) {
      ex.sendResponseHeaders(204, -1);
      return;
    }
    sendText(ex, status, text + "\n");
  }

  private static void sendText(HttpExchange ex, int status, String text) throws IOException {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
    if (b.length > 0) {
      try (OutputStream os = ex.getResponseBody()) {
        os.write(b);
      }
    }
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
    private int handlerThreads = 8;
    private int port;

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
