package io.sf2loki.salesforce.revisit;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared late-visibility revisit of one object or of ApexLog (SPEC OBJ-13…OBJ-17, APX-10): the
 * interval gate, the bounded memory of keys this term shipped, the revisit range below the
 * watermark, and the signals (metrics and logs). The source builds the queries and ships the rows;
 * this class decides when, over which range, and which listed keys are new.
 *
 * <p>One instance per object per term (the memory starts empty with each term, OBJ-17). Not
 * thread-safe; owned by the source's poll thread.
 */
public final class Revisit {
  private static final Logger log = LoggerFactory.getLogger(Revisit.class);

  /** Keys per {@code IN (…)} fetch query (the {@code FIELDS(ALL)} {@code LIMIT 200} cap). */
  public static final int FETCH_CHUNK = 200;

  /**
   * The rows one revisit looks at: {@code from <= ts < before} ({@code from < ts} when {@code
   * fromExclusive}); {@code before} is the watermark instant.
   */
  public record Range(Instant from, boolean fromExclusive, Instant before) {
    /** Whether {@code t} lies in the range (null never does). */
    public boolean contains(Instant t) {
      return t != null
          && t.isBefore(before)
          && (fromExclusive ? t.isAfter(from) : !t.isBefore(from));
    }
  }

  private final String source;
  private final String object;
  private final RevisitSettings settings;
  private final RevisitGate gate;
  private final ShippedKeys keys;
  private final Sf2lokiMetrics metrics;
  private final Attributes objectAttrs;
  private final Attributes listingAttrs;
  private final Attributes fetchAttrs;

  /**
   * @param source the {@code source} label ({@code eventlog_objects}, {@code apexlog})
   * @param object the {@code object} attribute (object name, or {@code apexlog})
   * @param settings window, interval, key bound
   * @param ticker monotonic clock of the interval gate (SRC-26)
   * @param metrics the instance's metrics
   */
  public Revisit(
      String source,
      String object,
      RevisitSettings settings,
      Ticker ticker,
      Sf2lokiMetrics metrics) {
    this.source = Objects.requireNonNull(source, "source");
    this.object = Objects.requireNonNull(object, "object");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.gate = new RevisitGate(ticker, settings.interval());
    this.keys = new ShippedKeys(settings.maxKeys());
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.objectAttrs = Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.OBJECT, object);
    this.listingAttrs = kind("listing");
    this.fetchAttrs = kind("fetch");
  }

  private Attributes kind(String kind) {
    return Attributes.of(
        Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.OBJECT, object, Sf2lokiMetrics.KIND, kind);
  }

  /** Whether the revisit is on ({@code revisit_window > 0}). */
  public boolean enabled() {
    return settings.enabled();
  }

  /** The {@code LIMIT} of one listing query ({@code revisit_max_keys}). */
  public int listingLimit() {
    return settings.maxKeys();
  }

  /**
   * OBJ-15: remembers a key the main path (or the revisit) shipped or deliberately skipped, when
   * its timestamp lies inside the window; no-op when the revisit is off or {@code at} is null.
   */
  public void remember(String key, Instant at, Instant serverNow) {
    if (!settings.enabled() || at == null || at.isBefore(serverNow.minus(settings.window()))) {
      return;
    }
    keys.remember(key, at);
  }

  /** Whether {@code key} was shipped in this term inside the window. */
  public boolean shipped(String key) {
    return keys.contains(key);
  }

  /**
   * OBJ-13/OBJ-14/OBJ-15: the range of the revisit to run now, or empty when the revisit is off,
   * the watermark is unknown, nothing lies between the window start and the watermark, or the
   * interval has not passed since the last revisit. A present result consumes the interval.
   *
   * @param serverNow server now (SRC-20)
   * @param watermark the object's watermark instant (the range ends just below it)
   */
  public Optional<Range> begin(Instant serverNow, Instant watermark) {
    if (!settings.enabled() || watermark == null) {
      return Optional.empty();
    }
    Instant from = serverNow.minus(settings.window());
    keys.pruneBefore(from);
    if (!from.isBefore(watermark) || !gate.tryEnter()) {
      return Optional.empty();
    }
    Instant floor = keys.floor();
    if (floor == null || floor.isBefore(from)) {
      return Optional.of(new Range(from, false, watermark));
    }
    incomplete("max_keys");
    log.atWarn()
        .addKeyValue("source", source)
        .addKeyValue("object", object)
        .addKeyValue("max_keys", settings.maxKeys())
        .addKeyValue("revisited_from", floor)
        .log(
            "revisit memory full: rows at or before revisited_from are not revisited; raise"
                + " revisit_max_keys or shorten revisit_window");
    return floor.isBefore(watermark)
        ? Optional.of(new Range(floor, true, watermark))
        : Optional.empty();
  }

  /** Counts one listing query that returned {@code rows} rows; a full listing is reported. */
  public void listed(int rows) {
    metrics.revisitQueries.add(1, listingAttrs);
    if (rows >= settings.maxKeys()) {
      incomplete("listing_limit");
      log.atWarn()
          .addKeyValue("source", source)
          .addKeyValue("object", object)
          .addKeyValue("limit", settings.maxKeys())
          .log(
              "revisit listing hit its limit: only the newest rows of the window were checked;"
                  + " raise revisit_max_keys or shorten revisit_window");
    }
  }

  /** Counts one full-row fetch query. */
  public void fetched() {
    metrics.revisitQueries.add(1, fetchAttrs);
  }

  /**
   * Reports listed rows the revisit cannot key (no usable Id or tiebreak field, or an unparseable
   * timestamp): they are not revisited.
   */
  public void unkeyed(int rows) {
    incomplete("unkeyed");
    log.atWarn()
        .addKeyValue("source", source)
        .addKeyValue("object", object)
        .addKeyValue("rows", rows)
        .log("revisit listed rows without a usable key or timestamp; they are not revisited");
  }

  /**
   * OBJ-16: a row the watermark had passed was handled now: remembered, and when {@code shipped}
   * counted in {@code sf2loki_late_rows_recovered} and logged at INFO with its visibility lag.
   */
  public void recovered(String key, Instant at, Instant serverNow, boolean shipped) {
    keys.remember(key, at);
    if (!shipped) {
      return;
    }
    metrics.lateRowsRecovered.add(1, objectAttrs);
    log.atInfo()
        .addKeyValue("source", source)
        .addKeyValue("object", object)
        .addKeyValue("key", key)
        .addKeyValue("row_timestamp", at.toString())
        .addKeyValue("lag_seconds", Duration.between(at, serverNow).toSeconds())
        .log("late row recovered by the revisit");
  }

  /** The dedup memory, for tests and diagnostics. */
  public ShippedKeys keys() {
    return keys;
  }

  private void incomplete(String reason) {
    metrics.revisitIncomplete.add(
        1,
        Attributes.of(
            Sf2lokiMetrics.SOURCE,
            source,
            Sf2lokiMetrics.OBJECT,
            object,
            Sf2lokiMetrics.REASON,
            reason));
  }

  /** {@code items} in consecutive chunks of at most {@link #FETCH_CHUNK}. */
  public static <T> List<List<T>> chunks(Collection<T> items) {
    List<List<T>> out = new ArrayList<>();
    List<T> cur = new ArrayList<>(FETCH_CHUNK);
    for (T t : items) {
      cur.add(t);
      if (cur.size() == FETCH_CHUNK) {
        out.add(cur);
        cur = new ArrayList<>(FETCH_CHUNK);
      }
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }
}
