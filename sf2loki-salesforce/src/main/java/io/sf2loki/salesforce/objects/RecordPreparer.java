package io.sf2loki.salesforce.objects;

import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.Sampler;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import io.sf2loki.core.shape.TextForm;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.elf.RowTransform;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Keys, transforms, samples and serialises object records (SPEC OBJ-5, OBJ-9, OBJ-10, XF-8, SRC-4)
 * on the bounded CPU pool (PIPE-26). Stateless apart from its collaborators; thread-safe.
 */
final class RecordPreparer {
  private static final Pattern REAL_ID = Pattern.compile("^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$");
  private static final Duration CPU_POLL = Duration.ofMillis(50);

  private final Executor cpu;
  private final RowTransform transform;
  private final StructuredMetadataExtractor metadata;

  RecordPreparer(Executor cpu, RowTransform transform, StructuredMetadataExtractor metadata) {
    this.cpu = cpu;
    this.transform = transform;
    this.metadata = metadata;
  }

  /** Prepares a page on the CPU pool (PIPE-26); null when the stop signal fired meanwhile. */
  List<PreparedRecord> prepare(ObjectState s, List<Map<String, Object>> page, StopSignal stop)
      throws InterruptedException {
    CompletableFuture<List<PreparedRecord>> f =
        CompletableFuture.supplyAsync(
            () -> {
              List<PreparedRecord> out = new ArrayList<>(page.size());
              for (Map<String, Object> rec : page) {
                out.add(prepare(s, rec));
              }
              return out;
            },
            cpu);
    while (true) {
      try {
        return f.get(CPU_POLL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (stop.isStopped()) {
          f.cancel(false);
          return null;
        }
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof RuntimeException re) {
          throw re;
        }
        if (c instanceof Error err) {
          throw err;
        }
        throw new IllegalStateException(c);
      }
    }
  }

  private PreparedRecord prepare(ObjectState s, Map<String, Object> rec) {
    ObjectSettings o = s.settings;
    String original = CanonicalJson.write(rec);
    Object tsv = rec.get(o.timestampField());
    String rawTs = tsv instanceof String str ? str : null;
    Instant instant = rawTs == null ? null : TimestampParser.parseOrNull(rawTs);
    Object tbv = rec.get(o.tiebreakField());
    String tiebreak = tbv == null ? null : TextForm.of(tbv);
    Object idv = rec.get("Id");
    String id = idv instanceof String str ? str : null;
    String key = recordKey(o.bigObject(), id, tiebreak);
    boolean realIdKey = !o.bigObject() && isRealId(id);
    if (key == null) {
      key = sha256(original);
    }
    long bytes = original.length(); // canonical JSON is ASCII (SRC-7)
    Map<String, Object> row = transform == RowTransform.NONE ? rec : new LinkedHashMap<>(rec);
    if (!transform.apply(row)) {
      return new PreparedRecord(
          key, realIdKey, rawTs, instant, tiebreak, false, false, null, null, null, bytes);
    }
    if (o.sample() < 1 && !Sampler.keep(key, o.sample())) {
      return new PreparedRecord(
          key, realIdKey, rawTs, instant, tiebreak, false, true, null, null, null, bytes);
    }
    Instant entryTs = TimestampParser.firstParsed(row, s.entryTimestampFields).orElse(null);
    String line = transform == RowTransform.NONE ? original : CanonicalJson.write(row);
    return new PreparedRecord(
        key,
        realIdKey,
        rawTs,
        instant,
        tiebreak,
        true,
        false,
        entryTs,
        line,
        metadata.extract(row),
        bytes);
  }

  /**
   * OBJ-5 record key from the key fields alone: {@code Id} on ordinary objects unless absent or a
   * placeholder, else the non-empty {@code tiebreak}; null when neither applies (the caller then
   * keys by the SHA-256 of the canonical JSON).
   */
  static String recordKey(boolean bigObject, String id, String tiebreak) {
    if (!bigObject && id != null && !isPlaceholder(id)) {
      return id;
    }
    if (tiebreak != null && !tiebreak.isEmpty()) {
      return tiebreak;
    }
    return null;
  }

  /** OBJ-5: an Id whose first 15 characters are all {@code 0}. */
  static boolean isPlaceholder(String id) {
    if (id.length() < 15) {
      return false;
    }
    for (int i = 0; i < 15; i++) {
      if (id.charAt(i) != '0') {
        return false;
      }
    }
    return true;
  }

  /** OBJ-3: a real Id (15 or 18 alphanumerics, not a placeholder). */
  static boolean isRealId(String id) {
    return id != null && REAL_ID.matcher(id).matches() && !isPlaceholder(id);
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
