package io.sf2loki.loki;

import io.sf2loki.core.model.LogEntry;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads which entries of a request Loki's distributor refused from its 400 body (SPEC SINK-19).
 *
 * <p>The distributor validates entry by entry ({@code pkg/distributor/distributor.go} {@code
 * Push}): refused entries are left out, the valid ones of the same request are still stored, and
 * the answer is 400 with the refusals as {@code GroupedErrors} ({@code pkg/util/errors/errors.go}):
 * distinct messages joined by {@code "; "}, each prefixed {@code "<n> errors like: "} when there is
 * more than one distinct message or one occurs more than once. Messages read here ({@code
 * pkg/validation/validate.go}, {@code pkg/distributor/validator.go}; Loki before 3.6 capitalises
 * the first letter, so the fixed text is matched case-insensitively):
 *
 * <ul>
 *   <li>{@code entry for stream '<labels>' has timestamp too old: <RFC 3339>, oldest acceptable
 *       timestamp is: <RFC 3339>} — reason {@code too_old}, the entry's second;
 *   <li>{@code entry for stream '<labels>' has timestamp too new: <RFC 3339>} — {@code too_new};
 *   <li>{@code max entry size '<limit>' bytes exceeded for stream '<labels>' while adding an entry
 *       with length '<bytes>' bytes} — {@code line_too_long}, the line's UTF-8 length;
 *   <li>any other {@code entry for stream '<labels>' …} message — one refused entry of that stream
 *       for a reason this sink does not know (dropped by count as {@code bad_request}).
 * </ul>
 *
 * A message of a known reason identifies its entries when exactly {@code n} not yet identified
 * entries of the named stream have that second (or that length); Loki checks age before size, so
 * timestamps are matched first. The body is understood only when every message is of these forms,
 * names a stream of the request by its labels, and every known-reason message identifies its
 * entries; otherwise (other texts, a per-stream label error, a mismatch, a truncated body) {@link
 * #read} gives empty and the caller falls back to SINK-10's split. Stateless.
 */
final class DistributorRejections {
  private DistributorRejections() {}

  /** Drop reason of refused entries the body counts but does not identify. */
  static final String UNKNOWN_REASON = "bad_request";

  /**
   * What a distributor 400 says about a request.
   *
   * @param identified refused entries per known reason (SINK-8 reasons), in request order
   * @param unidentified per stream, the number of its entries refused for an unknown reason
   */
  record Report(
      Map<String, List<LogEntry>> identified, Map<Map<String, String>, Integer> unidentified) {

    /** Entries of the request Loki stored or counted as refused without identifying them. */
    List<LogEntry> settled(List<LogEntry> request) {
      Set<LogEntry> refused = Collections.newSetFromMap(new IdentityHashMap<>());
      identified.values().forEach(refused::addAll);
      return request.stream().filter(e -> !refused.contains(e)).toList();
    }

    /** Total entries refused for an unknown reason. */
    int unidentifiedCount() {
      return unidentified.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  private static final String STREAM = "'(\\{.*\\})'";
  private static final Pattern ERRORS_LIKE = Pattern.compile("^(\\d+) errors like: (.*)$");
  private static final Pattern TOO_OLD =
      Pattern.compile(
          "^entry for stream "
              + STREAM
              + " has timestamp too old: (\\S+), oldest acceptable timestamp is: \\S+$",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern TOO_NEW =
      Pattern.compile(
          "^entry for stream " + STREAM + " has timestamp too new: (\\S+)$",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern LINE_TOO_LONG =
      Pattern.compile(
          "^max entry size '\\d+' bytes exceeded for stream "
              + STREAM
              + " while adding an entry with length '(\\d+)' bytes$",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern LABEL_NAMES =
      Pattern.compile("has \\d+ label names; limit \\d+$", Pattern.CASE_INSENSITIVE);
  private static final Pattern OTHER_ENTRY =
      Pattern.compile("^entry for stream " + STREAM + " \\S.*$", Pattern.CASE_INSENSITIVE);

  /** One message: its reason (null = unknown), stream, how many entries, and which ones. */
  private record Message(
      String reason, Map<String, String> stream, int count, Predicate<LogEntry> matches) {}

  /**
   * The distributor's refusals in {@code body} for {@code request}, or empty when the body does not
   * account for them (see the class comment).
   *
   * @param body the whole response body (bounded by the caller)
   * @param truncated whether the body was cut at the caller's bound
   * @param request the request's entries in request order
   */
  static Optional<Report> read(String body, boolean truncated, List<LogEntry> request) {
    if (truncated || body.isBlank()) {
      return Optional.empty();
    }
    List<Message> messages = new ArrayList<>();
    for (String segment : body.strip().split("; ")) {
      Message m = message(segment.strip());
      if (m == null) {
        return Optional.empty();
      }
      messages.add(m);
    }
    Map<Map<String, String>, List<LogEntry>> byStream = new LinkedHashMap<>();
    request.forEach(e -> byStream.computeIfAbsent(e.labels(), k -> new ArrayList<>()).add(e));
    Set<LogEntry> claimed = Collections.newSetFromMap(new IdentityHashMap<>());
    Map<String, List<LogEntry>> identified = new LinkedHashMap<>();
    // Loki checks age before line size: an entry too old and too long is reported as too old
    for (String reason : List.of("too_old", "too_new", "line_too_long")) {
      for (Message m : messages) {
        if (!reason.equals(m.reason())) {
          continue;
        }
        List<LogEntry> stream = byStream.get(m.stream());
        if (stream == null) {
          return Optional.empty();
        }
        List<LogEntry> hits =
            stream.stream().filter(e -> !claimed.contains(e) && m.matches().test(e)).toList();
        if (hits.size() != m.count()) {
          return Optional.empty();
        }
        claimed.addAll(hits);
        identified.computeIfAbsent(reason, r -> new ArrayList<>()).addAll(hits);
      }
    }
    Map<Map<String, String>, Integer> unidentified = new LinkedHashMap<>();
    for (Message m : messages) {
      if (m.reason() == null) {
        unidentified.merge(m.stream(), m.count(), Integer::sum);
      }
    }
    for (Map.Entry<Map<String, String>, Integer> u : unidentified.entrySet()) {
      List<LogEntry> stream = byStream.get(u.getKey());
      if (stream == null
          || u.getValue() > stream.stream().filter(e -> !claimed.contains(e)).count()) {
        return Optional.empty();
      }
    }
    identified.replaceAll((reason, list) -> inRequestOrder(request, list));
    return Optional.of(new Report(identified, unidentified));
  }

  private static List<LogEntry> inRequestOrder(List<LogEntry> request, List<LogEntry> some) {
    Set<LogEntry> set = Collections.newSetFromMap(new IdentityHashMap<>());
    set.addAll(some);
    return request.stream().filter(set::contains).toList();
  }

  /** One grouped segment, or null when it is not a message this class reads. */
  private static Message message(String segment) {
    int count = 1;
    String text = segment;
    Matcher g = ERRORS_LIKE.matcher(segment);
    if (g.matches()) {
      long c = LokiResponses.count(g.group(1));
      if (c < 1 || c > Integer.MAX_VALUE) {
        return null;
      }
      count = (int) c;
      text = g.group(2);
    }
    Matcher m;
    if ((m = TOO_OLD.matcher(text)).matches()) {
      return second("too_old", m.group(1), m.group(2), count);
    }
    if ((m = TOO_NEW.matcher(text)).matches()) {
      return second("too_new", m.group(1), m.group(2), count);
    }
    if ((m = LINE_TOO_LONG.matcher(text)).matches()) {
      Map<String, String> stream = PartialAcceptance.labels(m.group(1));
      long len = LokiResponses.count(m.group(2));
      return stream == null || len < 0
          ? null
          : new Message("line_too_long", stream, count, e -> e.lineBytes() == len);
    }
    String lower = text.toLowerCase(Locale.ROOT);
    if (LokiResponses.perEntryReason(lower) != null
        || lower.contains("structured metadata")
        || LABEL_NAMES.matcher(text).find()) {
      return null; // a known text in another shape, or a per-stream refusal
    }
    if ((m = OTHER_ENTRY.matcher(text)).matches()) {
      Map<String, String> stream = PartialAcceptance.labels(m.group(1));
      return stream == null ? null : new Message(null, stream, count, e -> false);
    }
    return null;
  }

  private static Message second(String reason, String labels, String rfc3339, int count) {
    Map<String, String> stream = PartialAcceptance.labels(labels);
    Instant t = rfc3339(rfc3339);
    if (stream == null || t == null) {
      return null;
    }
    long s = t.getEpochSecond();
    return new Message(reason, stream, count, e -> e.timestamp().getEpochSecond() == s);
  }

  /** Go's {@code time.RFC3339} (whole seconds, {@code Z} or an offset); null when malformed. */
  static Instant rfc3339(String s) {
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
