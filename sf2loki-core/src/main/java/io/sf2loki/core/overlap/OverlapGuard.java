package io.sf2loki.core.overlap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The overlap guard of SPEC SRC-22…SRC-24: one event category is fed by one source type, so the
 * same events do not reach Loki twice through two channels. Categories are derived per input kind
 * (SRC-22); the only alias is {@code loginhistory} → {@code login}.
 */
public final class OverlapGuard {
  private static final List<String> SUFFIXES = List.of("EventStream", "EventStore", "Event");
  private static final Map<String, String> ALIASES = Map.of("loginhistory", "login");

  private OverlapGuard() {}

  /** Category of a Pub/Sub topic: last path segment, suffix stripped, lower-cased, aliased. */
  public static String ofTopic(String topic) {
    String last = topic.substring(topic.lastIndexOf('/') + 1);
    return alias(stripSuffix(last).toLowerCase(Locale.ROOT));
  }

  /** Category of a SOQL object name: suffix stripped, lower-cased, aliased. */
  public static String ofObject(String object) {
    return alias(stripSuffix(object).toLowerCase(Locale.ROOT));
  }

  /** Category of an ELF EventType: lower-cased, spaces removed, aliased (no suffix stripping). */
  public static String ofElfType(String eventType) {
    return alias(eventType.toLowerCase(Locale.ROOT).replace(" ", ""));
  }

  private static String stripSuffix(String name) {
    for (String s : SUFFIXES) {
      if (name.endsWith(s) && name.length() > s.length()) {
        return name.substring(0, name.length() - s.length()); // only the first matching suffix
      }
    }
    return name;
  }

  private static String alias(String category) {
    return ALIASES.getOrDefault(category, category);
  }

  /**
   * SRC-23: the build-time check of one org's explicit inputs.
   *
   * @param topics explicit (filtered) Pub/Sub topic names
   * @param objects enabled SOQL object names
   * @param elfTypes explicit EventLogFile types
   * @return one line per category fed by more than one source type, {@code category '<c>':
   *     <source>=<name>, …}, sorted by category; empty when there is no overlap
   */
  public static List<String> violations(
      List<String> topics, List<String> objects, List<String> elfTypes) {
    Map<String, Map<String, List<String>>> byCategory = new TreeMap<>();
    add(byCategory, "pubsub", topics, OverlapGuard::ofTopic);
    add(byCategory, "eventlog_objects", objects, OverlapGuard::ofObject);
    add(byCategory, "eventlogfile", elfTypes, OverlapGuard::ofElfType);
    List<String> lines = new ArrayList<>();
    byCategory.forEach(
        (category, sources) -> {
          if (sources.size() > 1) {
            List<String> parts = new ArrayList<>();
            sources.forEach((source, names) -> names.forEach(n -> parts.add(source + "=" + n)));
            lines.add("category '" + category + "': " + String.join(", ", parts));
          }
        });
    return lines;
  }

  /** SRC-24: the categories owned by an org's explicit Pub/Sub topics and objects. */
  public static Set<String> ownedByStreamsAndObjects(List<String> topics, List<String> objects) {
    Set<String> owned = new java.util.HashSet<>();
    topics.forEach(t -> owned.add(ofTopic(t)));
    objects.forEach(o -> owned.add(ofObject(o)));
    return Set.copyOf(owned);
  }

  private static void add(
      Map<String, Map<String, List<String>>> byCategory,
      String source,
      List<String> names,
      java.util.function.UnaryOperator<String> category) {
    for (String n : names) {
      if (n.equals("*")) {
        continue;
      }
      byCategory
          .computeIfAbsent(category.apply(n), k -> new LinkedHashMap<>())
          .computeIfAbsent(source, k -> new ArrayList<>())
          .add(n);
    }
  }
}
