package io.sf2loki.salesforce.pubsub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Topic resolution for the Pub/Sub source (SPEC PS-10, PS-19, PS-20). Pure functions, no I/O.
 *
 * <p>The include/exclude glob filter (XF-11) is passed in as a {@code Predicate<String>} that is
 * true iff a topic matches at least one {@code include} glob and no {@code exclude} glob; the glob
 * implementation lives with the configuration.
 */
public final class PubSubTopics {
  /** The {@code topics} entry that asks for discovery (PS-20). */
  public static final String DISCOVER = "*";

  private static final String RTEM_SUFFIX = "EventStream";

  private PubSubTopics() {}

  /**
   * The configured topics after PS-19: {@code discover} is true when {@code "*"} was present;
   * {@code explicit} is the other entries, de-duplicated in first-seen order, that pass the filter.
   */
  public record Resolved(boolean discover, List<String> explicit) {
    /** Copies the list. */
    public Resolved {
      explicit = List.copyOf(explicit);
    }
  }

  /**
   * Applies PS-19 to {@code sources.pubsub.topics}: drops {@code "*"} (remembering it),
   * de-duplicates preserving order, keeps a topic iff {@code filter} accepts it.
   *
   * @throws IllegalArgumentException when an entry is null or blank
   */
  public static Resolved resolve(List<String> configured, Predicate<String> filter) {
    boolean discover = false;
    Set<String> kept = new LinkedHashSet<>();
    for (String topic : configured) {
      if (topic == null || topic.isBlank()) {
        throw new IllegalArgumentException("pubsub topic must not be blank");
      }
      if (DISCOVER.equals(topic)) {
        discover = true;
      } else if (filter.test(topic)) {
        kept.add(topic);
      }
    }
    return new Resolved(discover, new ArrayList<>(kept));
  }

  /**
   * PS-20: maps the sObject names of a {@code GET /sobjects/} describe to the discovered Real-Time
   * Event Monitoring topics: names ending in {@code EventStream} become {@code /event/<Name>},
   * sorted, without duplicates.
   */
  public static List<String> discoveredTopics(Collection<String> sobjectNames) {
    return sobjectNames.stream()
        .filter(Objects::nonNull)
        .filter(name -> name.endsWith(RTEM_SUFFIX))
        .map(name -> "/event/" + name)
        .distinct()
        .sorted()
        .toList();
  }

  /**
   * PS-20: the topics of one discovery pass: the discovered topics that pass the filter and are not
   * already explicit, in discovery order (the SRC-24 ownership registry is applied by the caller).
   */
  public static List<String> newDiscovered(
      List<String> discovered, Collection<String> explicit, Predicate<String> filter) {
    Set<String> seen = new LinkedHashSet<>(explicit);
    List<String> out = new ArrayList<>();
    for (String topic : discovered) {
      if (filter.test(topic) && seen.add(topic)) {
        out.add(topic);
      }
    }
    return out;
  }

  /**
   * PS-10: the {@code event_type} label of a topic, its last path segment ({@code
   * /event/LoginEventStream} → {@code LoginEventStream}, {@code /data/AccountChangeEvent} → {@code
   * AccountChangeEvent}, {@code /event/Order_Shipped__e} → {@code Order_Shipped__e}). A trailing
   * {@code /} is ignored; a name without {@code /} is its own segment.
   *
   * @throws IllegalArgumentException when the topic has no non-empty segment
   */
  public static String eventType(String topic) {
    String trimmed = topic.endsWith("/") ? topic.substring(0, topic.length() - 1) : topic;
    String segment = trimmed.substring(trimmed.lastIndexOf('/') + 1);
    if (segment.isEmpty()) {
      throw new IllegalArgumentException("pubsub topic has no name segment: '" + topic + "'");
    }
    return segment;
  }

  /** The checkpoint key of a topic: {@code pubsub:<topic>} (SRC-3 table, PS-12). */
  public static String checkpointKey(String topic) {
    return "pubsub:" + topic;
  }
}
