package io.sf2loki.salesforce.elf;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import io.sf2loki.salesforce.source.Soql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event types of each EventLogFile cycle (SPEC ELF-2, ELF-3, SRC-24): the explicit ones, plus
 * with {@code *} the discovered ones (not excluded, SOQL identifiers, not owned by another source),
 * rotated so the type after the one started last goes first. Keeps each type's {@link ElfType} for
 * the term. Touched only by the source's run thread.
 */
final class ElfTypes {
  private static final Logger log = LoggerFactory.getLogger(EventLogFileSource.class);
  private static final String SOURCE = RowShaper.SOURCE;

  private final EventLogFileSettings settings;
  private final ElfListing listing;
  private final Sf2lokiMetrics metrics;
  private final RowTransform transform;
  private final Predicate<String> ownedElsewhere;
  private final Set<String> excluded;
  private final List<ElfType> explicitTypes;
  private final EventTypeSettings wildcard;

  /** Discovered types by name; state kept for the term. */
  private final Map<String, ElfType> discovered = new HashMap<>();

  /** Discovered names already reported as owned elsewhere (INFO once per term). */
  private final Set<String> loggedOwned = new HashSet<>();

  /** Name of the type started last (ELF-3 rotation). */
  private String lastStarted;

  ElfTypes(
      EventLogFileSettings settings,
      ElfListing listing,
      Sf2lokiMetrics metrics,
      RowTransform transform,
      Predicate<String> ownedElsewhere) {
    this.settings = settings;
    this.listing = listing;
    this.metrics = metrics;
    this.transform = transform;
    this.ownedElsewhere = ownedElsewhere;
    this.excluded = Set.copyOf(settings.exclude());
    List<ElfType> list = new ArrayList<>();
    EventTypeSettings star = null;
    for (EventTypeSettings t : settings.eventTypes()) {
      if (t.isWildcard()) {
        star = star == null ? t : star;
        continue;
      }
      if (list.stream().anyMatch(s -> s.name.equals(t.name()))) {
        continue;
      }
      list.add(type(t));
    }
    this.explicitTypes = List.copyOf(list);
    this.wildcard = star;
  }

  private ElfType type(EventTypeSettings t) {
    List<String> md =
        t.structuredMetadataFields() != null
            ? t.structuredMetadataFields()
            : settings.structuredMetadataFields();
    return new ElfType(
        t.name(),
        new RowShaper(
            t.name(), settings.timestampColumn(), t.labels(), t.sample(), md, transform, metrics));
  }

  /** The explicit types (the cycle's types when discovery is off or failed). */
  List<ElfType> explicit() {
    return explicitTypes;
  }

  /** Every type known this term: explicit and discovered so far (OBS-21 paused reports). */
  List<ElfType> known() {
    List<ElfType> all = new ArrayList<>(explicitTypes);
    all.addAll(discovered.values());
    return all;
  }

  /** Records the type a cycle started last (ELF-3 rotation). */
  void started(ElfType t) {
    lastStarted = t.name;
  }

  /**
   * ELF-2: explicit types, plus with {@code *} the discovered ones.
   *
   * @return the cycle's types, or empty when discovery was throttled (ELF-3: no type this cycle)
   */
  Optional<List<ElfType>> resolve(PollReporter reporter) throws InterruptedException {
    if (wildcard == null) {
      return Optional.of(explicitTypes);
    }
    List<Map<String, Object>> rows;
    try {
      rows = listing.discover();
    } catch (SoqlThrottledException e) {
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log(
              "eventlogfile type discovery throttled (REQUEST_LIMIT_EXCEEDED); no type this cycle");
      return Optional.empty();
    } catch (SoqlException e) {
      metrics.soqlPollErrors.add(
          1, Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.OBJECT, "discovery"));
      log.atWarn()
          .addKeyValue("source", SOURCE)
          .addKeyValue("object", "discovery")
          .addKeyValue("status", e.status())
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("eventlogfile type discovery failed; using explicit types this cycle");
      return Optional.of(explicitTypes);
    }
    return Optional.of(withDiscovered(rows));
  }

  private List<ElfType> withDiscovered(List<Map<String, Object>> rows) {
    Set<String> explicitNames = new HashSet<>();
    explicitTypes.forEach(t -> explicitNames.add(t.name));
    List<ElfType> out = new ArrayList<>(explicitTypes);
    Set<String> seen = new HashSet<>();
    for (Map<String, Object> row : rows) {
      Object v = row.get("EventType");
      String name = v == null ? null : String.valueOf(v);
      if (name == null
          || !seen.add(name)
          || explicitNames.contains(name)
          || excluded.contains(name)
          || !Soql.isIdentifier(name)) {
        continue;
      }
      if (ownedElsewhere.test(name)) {
        if (!discovered.containsKey(name) && loggedOwned.add(name)) {
          log.atInfo()
              .addKeyValue("source", SOURCE)
              .addKeyValue("event_type", name)
              .log("discovered eventlogfile type skipped: its category is owned by another source");
        }
        continue;
      }
      out.add(
          discovered.computeIfAbsent(
              name, n -> type(new EventTypeSettings(n, null, List.of(), wildcard.sample()))));
    }
    return out;
  }

  /** {@code types} starting after the type started last (ELF-3). */
  List<ElfType> rotated(List<ElfType> types) {
    int start = 0;
    if (lastStarted != null) {
      for (int i = 0; i < types.size(); i++) {
        if (types.get(i).name.equals(lastStarted)) {
          start = (i + 1) % types.size();
          break;
        }
      }
    }
    List<ElfType> out = new ArrayList<>(types.size());
    for (int i = 0; i < types.size(); i++) {
      out.add(types.get((start + i) % types.size()));
    }
    return out;
  }
}
