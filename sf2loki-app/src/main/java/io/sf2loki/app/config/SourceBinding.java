package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigBinder.EVENT_TYPE_KEYS;
import static io.sf2loki.app.config.ConfigBinder.LABEL_NAME;
import static io.sf2loki.app.config.ConfigBinder.MAX_STREAM_LABELS;
import static io.sf2loki.app.config.ConfigBinder.OBJECT_KEYS;
import static io.sf2loki.app.config.ConfigBinder.RESERVED_ELF_LABELS;
import static io.sf2loki.app.config.ConfigBinder.USERNAME;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import io.sf2loki.salesforce.source.Soql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Binds the polling sources of one {@code sources} object — {@code eventlog_objects}, {@code
 * eventlogfile}, {@code apexlog} and their revisit keys (SPEC §1.3, CFG-10, CFG-16…CFG-18, OBJ,
 * APX) — straight into the sources' settings records. Package-private part of {@link ConfigBinder};
 * one instance per load.
 */
final class SourceBinding {
  private final Section.Problems problems;
  private final List<String> warnings;
  private final TransformBinding transforms;
  private final List<String> globalMetadata;
  private final Set<String> lokiLabels;
  private final boolean multiOrg;
  private final List<ConfigException.Problem> labelCountProblems;

  /**
   * @param globalMetadata {@code sink.loki.structured_metadata_fields} (SRC-9)
   * @param lokiLabels {@code sink.loki.labels} keys, or null when {@code sink.loki} is missing (the
   *     CFG-16 count is then skipped)
   * @param labelCountProblems where CFG-16 problems wait until {@link ConfigBinder#bind} adds them
   */
  SourceBinding(
      Section.Problems problems,
      List<String> warnings,
      TransformBinding transforms,
      List<String> globalMetadata,
      Set<String> lokiLabels,
      boolean multiOrg,
      List<ConfigException.Problem> labelCountProblems) {
    this.problems = problems;
    this.warnings = warnings;
    this.transforms = transforms;
    this.globalMetadata = globalMetadata;
    this.lokiLabels = lokiLabels;
    this.multiOrg = multiOrg;
    this.labelCountProblems = labelCountProblems;
  }

  SourceConfig<EventLogObjectsSettings> eventlogObjects(Section s) {
    List<ObjectSettings> objects = new ArrayList<>();
    List<JsonNode> items = s.list("objects");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      Section o = new Section(items.get(i), s.path("objects") + "." + i, problems, OBJECT_KEYS);
      String name = requiredIdentifier(o, "name");
      // SOQL names are case-insensitive: two entries would poll one object under two cursors
      if (!name.isEmpty() && !names.add(name.toLowerCase(Locale.ROOT))) {
        o.problem("name", "duplicate object name '" + name + "'");
      }
      String tsField = identifier(o, SourceKeys.OBJ_TIMESTAMP_FIELD);
      double sample = o.number(SourceKeys.SAMPLE);
      checkRate(o.path("sample"), sample);
      long maxRecords = o.integer(SourceKeys.OBJ_MAX_CATCHUP_RECORDS);
      long maxBytes = o.integer(SourceKeys.OBJ_MAX_CATCHUP_BYTES);
      Duration poll = o.duration(SourceKeys.OBJ_POLL_INTERVAL);
      Duration lookback = o.duration(SourceKeys.OBJ_LOOKBACK);
      Duration settle = o.duration(SourceKeys.OBJ_SETTLE_WINDOW);
      boolean big = o.bool(SourceKeys.OBJ_BIG_OBJECT);
      String tiebreak = identifier(o, SourceKeys.OBJ_TIEBREAK_FIELD);
      RevisitSettings revisit = revisit(o);
      objects.add(
          o.build(
              () ->
                  new ObjectSettings(
                      name,
                      tsField,
                      poll,
                      lookback,
                      settle,
                      sample,
                      big,
                      maxRecords,
                      maxBytes,
                      tiebreak,
                      revisit)));
    }
    boolean enabled = s.bool(SourceKeys.ELO_ENABLED);
    List<TransformRule> rules = transforms.bind(s, "transforms", Set.of());
    EventLogObjectsSettings settings =
        s.build(() -> new EventLogObjectsSettings(objects, globalMetadata, false));
    return new SourceConfig<>(enabled, settings, rules);
  }

  SourceConfig<EventLogFileSettings> eventlogfile(Section s, String labelBase) {
    boolean enabled = s.bool(SourceKeys.ELF_ENABLED);
    EventLogFileSettings.Interval interval =
        s.choice(SourceKeys.ELF_INTERVAL, EventLogFileSettings.Interval.class);
    List<EventLogFileSettings.EventTypeSettings> types = new ArrayList<>();
    List<JsonNode> items = s.list("event_types");
    Set<String> promoted = new LinkedHashSet<>();
    Set<String> seenTypes = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      String p = s.path("event_types") + "." + i;
      Section t = eventTypeSection(items.get(i), p);
      if (t == null) {
        continue;
      }
      String name = eventTypeName(t);
      List<String> smf =
          t.has("structured_metadata_fields")
              ? t.stringList("structured_metadata_fields", List.of())
              : null;
      List<String> labels = promotedLabels(t);
      promoted.addAll(labels);
      double sample = t.number(SourceKeys.ET_SAMPLE);
      checkRate(t.path("sample"), sample);
      if (labelBase != null) {
        checkElfLabelCount(name, labels, labelBase + ".eventlogfile.event_types." + i + ".labels");
      }
      if (!name.isEmpty() && !seenTypes.add(name.toLowerCase(Locale.ROOT))) {
        // kept loadable for 1.x compatibility; the source uses the first entry of a name (CFG-17)
        warnings.add(
            p
                + ": duplicate event type '"
                + name
                + "' is ignored; the settings of its first entry apply");
        continue;
      }
      types.add(
          t.build(() -> new EventLogFileSettings.EventTypeSettings(name, smf, labels, sample)));
    }
    if (enabled && items.isEmpty()) {
      s.problem(
          "event_types", "must not be empty when eventlogfile is enabled (use \"*\" to discover)");
    }
    int pageSize = s.intValue(SourceKeys.ELF_PAGE_SIZE);
    int concurrency = s.intValue(SourceKeys.ELF_CONCURRENCY);
    Duration settleDefault = EventLogFileSettings.defaultSettleWindow(interval); // CFG-18
    List<String> exclude = s.stringList(SourceKeys.ELF_EXCLUDE);
    Duration poll = s.duration(SourceKeys.ELF_POLL_INTERVAL);
    Duration lookback = s.duration(SourceKeys.ELF_LOOKBACK);
    String tsColumn = s.string(SourceKeys.ELF_TIMESTAMP_COLUMN);
    Duration settle = s.duration(SourceKeys.ELF_SETTLE_WINDOW.key(), settleDefault); // CFG-18
    Duration maxAge = s.duration(SourceKeys.ELF_DOWNLOAD_MAX_AGE);
    List<TransformRule> rules = transforms.bind(s, "transforms", promoted);
    EventLogFileSettings settings =
        s.build(
            () ->
                new EventLogFileSettings(
                    interval,
                    types,
                    exclude,
                    poll,
                    lookback,
                    tsColumn,
                    pageSize,
                    settle,
                    maxAge,
                    concurrency,
                    globalMetadata,
                    false));
    return new SourceConfig<>(enabled, settings, rules);
  }

  /**
   * An {@code event_types[]} item; a bare string {@code X} binds as {@code {name: X}}; any other
   * scalar is one problem and null.
   */
  private Section eventTypeSection(JsonNode item, String path) {
    if (item.isValueNode() && !item.isTextual() && !item.isNull()) {
      problems.add(
          path,
          "expected an event type name or a mapping with name, got "
              + Section.describe(item)
              + " '"
              + item.asText()
              + "'");
      return null;
    }
    if (item.isTextual()) {
      ObjectNode obj = JsonNodeFactory.instance.objectNode();
      obj.set("name", item);
      item = obj;
    }
    return new Section(item, path, problems, EVENT_TYPE_KEYS);
  }

  /** {@code name}: {@code *} or a SOQL identifier (CFG-10); {@code ""} when missing. */
  private static String eventTypeName(Section t) {
    String name = t.requiredString("name");
    if (name == null) {
      return "";
    }
    if (!name.equals("*") && !Soql.isIdentifier(name)) {
      t.problem("name", "must be \"*\" or match " + Soql.identifierPattern());
    }
    return name;
  }

  /** {@code labels}: promoted columns (CFG-16). */
  private static List<String> promotedLabels(Section t) {
    List<String> labels = t.stringList(SourceKeys.ET_LABELS);
    for (String label : labels) {
      if (!LABEL_NAME.matcher(label).matches()) {
        t.problem("labels", "'" + label + "' must match " + LABEL_NAME.pattern());
      } else if (RESERVED_ELF_LABELS.contains(label)) {
        t.problem("labels", "'" + label + "' is reserved and cannot be a promoted column label");
      }
    }
    return labels;
  }

  SourceConfig<ApexLogSettings> apexlog(Section s) {
    List<String> users = s.stringList(SourceKeys.APX_USERS);
    for (int i = 0; i < users.size(); i++) {
      if (!USERNAME.matcher(users.get(i)).matches()) {
        problems.add(
            s.path("users") + "." + i, "must be an exact username matching " + USERNAME.pattern());
      }
    }
    long maxBody = s.integer(SourceKeys.APX_MAX_BODY_BYTES);
    double sample = s.number(SourceKeys.SAMPLE);
    checkRate(s.path("sample"), sample);
    boolean enabled = s.bool(SourceKeys.APX_ENABLED);
    Duration poll = s.duration(SourceKeys.APX_POLL_INTERVAL);
    Duration lookback = s.duration(SourceKeys.APX_LOOKBACK);
    List<TransformRule> rules = transforms.bind(s, "transforms", Set.of());
    RevisitSettings revisit = revisit(s);
    ApexLogSettings settings =
        s.build(
            () ->
                new ApexLogSettings(
                    poll, lookback, users, maxBody, sample, globalMetadata, false, revisit));
    return new SourceConfig<>(enabled, settings, rules);
  }

  /** OBJ-13…OBJ-17, APX-10: the three revisit keys of an object or of {@code apexlog}. */
  private static RevisitSettings revisit(Section s) {
    Setting keys = SourceKeys.REVISIT_MAX_KEYS;
    int maxKeys = s.intValue(keys.key(), (int) keys.longDefault());
    if (maxKeys < keys.min() || maxKeys > keys.max()) {
      s.problem(
          keys.key(),
          "must be between "
              + Section.show(keys.min())
              + " and "
              + Section.show(keys.max())
              + " (the most rows one query returns)");
      maxKeys = (int) keys.longDefault();
    }
    Duration window = s.duration(SourceKeys.REVISIT_WINDOW);
    Duration interval = s.duration(SourceKeys.REVISIT_INTERVAL);
    int keep = maxKeys;
    return s.build(() -> new RevisitSettings(window, interval, keep));
  }

  /**
   * CFG-16: the number of distinct label names an ELF stream can carry. Reported after the static
   * label check, in org order (the problems are held until {@link #bind} adds them).
   */
  private void checkElfLabelCount(String type, List<String> labels, String path) {
    if (lokiLabels == null) {
      return;
    }
    Set<String> all =
        new TreeSet<>(
            List.of(
                "job",
                "service_name",
                "source",
                "event_type",
                "environment",
                "sf_org_id",
                "backfill",
                "late"));
    if (multiOrg) {
      all.add("org");
    }
    all.addAll(lokiLabels);
    all.addAll(labels);
    if (all.size() > MAX_STREAM_LABELS) {
      labelCountProblems.add(
          new ConfigException.Problem(
              path,
              "event type '"
                  + type
                  + "' would carry "
                  + all.size()
                  + " label names, more than Loki's default limit of "
                  + MAX_STREAM_LABELS));
    }
  }

  // ---- small checks ----

  private String requiredIdentifier(Section s, String key) {
    String v = s.requiredString(key);
    if (v == null) {
      return "";
    }
    if (!Soql.isIdentifier(v)) {
      s.problem(key, "must match " + Soql.identifierPattern() + " (got '" + v + "')");
    }
    return v;
  }

  private String identifier(Section s, Setting d) {
    String key = d.key();
    String v = s.string(d);
    if (!Soql.isIdentifier(v)) {
      s.problem(key, "must match " + Soql.identifierPattern() + " (got '" + v + "')");
    }
    return v;
  }

  void checkRate(String path, double rate) {
    if (!(rate > 0 && rate <= 1)) {
      problems.add(path, "sampling rate must be greater than 0 and at most 1 (got " + rate + ")");
    }
  }
}
