package io.sf2loki.sim.loki;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Loki's push error texts, verbatim from {@code shared/fixtures/loki/loki_errors.md} (Loki {@code
 * pkg/validation/validate.go}, {@code pkg/chunkenc/interface.go}, {@code pkg/ingester/stream.go},
 * {@code pkg/util/errors/errors.go}). Stateless.
 */
final class LokiMessages {
  private LokiMessages() {}

  /** Go's {@code time.RFC3339} layout for UTC: whole seconds, {@code Z}. */
  static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  /** Loki's {@code ingester.max-ignored-stream-errors} default: rejected entries listed. */
  static final int MAX_LISTED_INGESTER_ERRORS = 10;

  /** Go's {@code time.Time.String()} for a UTC instant: fraction without trailing zeros. */
  static String goTimeString(Instant t) {
    String base =
        DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC).format(t);
    String frac = "";
    if (t.getNano() != 0) {
      frac = String.format(Locale.ROOT, ".%09d", t.getNano()).replaceAll("0+$", "");
    }
    return base + frac + " +0000 UTC";
  }

  /** The chunk's {@code ErrTooFarBehind} text (both times RFC 3339). */
  static String tooFarBehind(Instant ts, Instant oldest) {
    return "entry too far behind, entry timestamp is: "
        + RFC3339.format(ts)
        + ", oldest acceptable timestamp is: "
        + RFC3339.format(oldest);
  }

  /** One ingester line for a refused entry. */
  static String ignoredLine(Instant ts, String reason) {
    return "entry with timestamp " + goTimeString(ts) + " ignored, reason: '" + reason + "',\n";
  }

  /**
   * The ingester's error for one stream: at most {@value #MAX_LISTED_INGESTER_ERRORS} {@link
   * #ignoredLine} lines, then {@code user '<tenant>', total ignored: <k> out of <n> for stream:
   * <labels>}.
   */
  static String ingesterError(List<String> ignored, String tenant, int total, String stream) {
    StringBuilder sb = new StringBuilder();
    ignored.stream().limit(MAX_LISTED_INGESTER_ERRORS).forEach(sb::append);
    return sb.append("user '")
        .append(tenant)
        .append("', total ignored: ")
        .append(ignored.size())
        .append(" out of ")
        .append(total)
        .append(" for stream: ")
        .append(stream)
        .toString();
  }

  static String maxEntrySize(long limit, String stream, int len) {
    return "max entry size '"
        + limit
        + "' bytes exceeded for stream '"
        + stream
        + "' while adding an entry with length '"
        + len
        + "' bytes";
  }

  static String metadataDisallowed(String stream) {
    return "stream '"
        + stream
        + "' includes structured metadata, but this feature is"
        + " disallowed. Please see `limits_config.allow_structured_metadata` or contact your"
        + " Loki administrator to enable it";
  }

  static String tooOld(String stream, Instant ts, Instant oldest) {
    return "entry for stream '"
        + stream
        + "' has timestamp too old: "
        + RFC3339.format(ts)
        + ", oldest acceptable timestamp is: "
        + RFC3339.format(oldest);
  }

  /** Distributor text beyond {@code creation_grace_period} (time RFC 3339, as Loki formats it). */
  static String tooNew(String stream, Instant ts) {
    return "entry for stream '" + stream + "' has timestamp too new: " + RFC3339.format(ts);
  }

  static String labelNames(String stream, int n, int limit) {
    return "entry for stream '" + stream + "' has " + n + " label names; limit " + limit;
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
}
