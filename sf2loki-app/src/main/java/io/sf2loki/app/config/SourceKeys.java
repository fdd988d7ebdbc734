package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.integer;
import static io.sf2loki.core.settings.Setting.list;
import static io.sf2loki.core.settings.Setting.map;
import static io.sf2loki.core.settings.Setting.number;
import static io.sf2loki.core.settings.Setting.rateMap;
import static io.sf2loki.core.settings.Setting.secret;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.pubsub.PubSubReaderSettings;
import io.sf2loki.salesforce.pubsub.PubSubSourceSettings;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import java.util.List;

/** Definitions of {@code sources} (also {@code orgs[].sources}) and transform rules, SPEC §1.3. */
final class SourceKeys {
  // ---- transform rule ----
  static final Setting XF_ACTION =
      choice(
              "action",
              null,
              List.of("hash", "mask", "drop_field", "drop_row", "regex_replace"),
              "What the rule does.",
              "XF-1")
          .mandatory()
          .example("hash");
  static final Setting XF_FIELDS = list("fields", List.of(), "Fields the rule acts on.", "CFG-19");
  static final Setting XF_MATCH = map("match", "Field → glob; drop_row only.", "CFG-19");
  static final Setting XF_PATTERN =
      string("pattern", null, "Regular expression; regex_replace only.", "CFG-19, XF-5");
  static final Setting XF_REPLACEMENT =
      string("replacement", "", "Replacement text of regex_replace.", "XF-5");
  static final Setting XF_NAME =
      string("name", "", "Metric label; empty = <action>-<index>.", "XF-1")
          .defaultText("<action>-<index>");

  static Group transforms(String description) {
    return Group.listOf(
        "transforms",
        description,
        "XF-1, CFG-19",
        List.of(XF_ACTION, XF_FIELDS, XF_MATCH, XF_PATTERN, XF_REPLACEMENT, XF_NAME));
  }

  static final Setting SAMPLE =
      number("sample", 1.0, "Sampling rate in (0, 1].", "SRC-14").greaterThan(0).atMost(1);

  // ---- revisit (objects[] and apexlog) ----
  static final Setting REVISIT_WINDOW =
      duration(
          "revisit_window",
          RevisitSettings.DEFAULT_WINDOW,
          "How far back the late-visibility revisit looks; 0 = off.",
          "OBJ-13, APX-10");
  static final Setting REVISIT_INTERVAL =
      duration(
              "revisit_interval",
              RevisitSettings.DEFAULT_INTERVAL,
              "Least time between two revisits.",
              "OBJ-14, APX-10")
          .greaterThan(0);
  static final Setting REVISIT_MAX_KEYS =
      integer(
              "revisit_max_keys",
              RevisitSettings.DEFAULT_MAX_KEYS,
              "Keys remembered, and LIMIT of one revisit listing.",
              "OBJ-15, APX-10")
          .atLeast(1)
          .atMost(50_000);

  // ---- sources ----
  static final Setting ALLOW_OVERLAP =
      bool("allow_overlap", false, "Disable the overlap guard.", "SRC-22, SRC-23, SRC-24");
  static final Setting TRANSFORM_SALT =
      secret("transform_salt", "Salt for hash transform rules.", "CFG-24, XF-2");

  // ---- pubsub ----
  static final Setting PS_ENABLED = bool("enabled", true, "Run the Pub/Sub source.", "PS-1");
  static final Setting PS_ENDPOINT =
      string("endpoint", "api.pubsub.salesforce.com:7443", "gRPC target host:port.", "PS-1");
  static final Setting PS_TLS =
      bool("tls", true, "false = plaintext gRPC (local simulator only).", "PS-1");
  static final Setting PS_NUM_REQUESTED =
      integer(
              "default_num_requested",
              PubSubReaderSettings.DEFAULT_NUM_REQUESTED,
              "Credits per FetchRequest.",
              "PS-8")
          .atLeast(1)
          .atMost(100);
  static final Setting PS_REPLAY_PRESET =
      choice(
          "replay_preset",
          "CUSTOM",
          List.of("LATEST", "EARLIEST", "CUSTOM"),
          "Where a topic without a stored replay id starts.",
          "PS-13");
  static final Setting PS_ON_INVALID_REPLAY =
      choice(
          "on_invalid_replay",
          "earliest",
          List.of("earliest", "latest"),
          "Preset used once when a stored replay id is rejected.",
          "PS-13, PS-15");
  static final Setting PS_TOPICS =
      list("topics", List.of(), "Topic names, or \"*\" to discover.", "PS-19")
          .example("/event/LoginEventStream");
  static final Setting PS_INCLUDE =
      list("include", List.of("*"), "Globs a topic must match.", "PS-19, XF-11");
  static final Setting PS_EXCLUDE =
      list("exclude", List.of(), "Globs that skip a topic.", "PS-19, XF-11");
  static final Setting PS_REDISCOVERY =
      duration(
          "rediscovery_interval",
          PubSubSourceSettings.DEFAULT_REDISCOVERY_INTERVAL,
          "Time between topic discoveries; 0 = at startup only.",
          "PS-20");
  static final Setting PS_SAMPLE =
      rateMap("sample", "Glob → sampling rate; first match in map order.", "SRC-14");
  static final Setting PS_BRIDGE_MAX_BYTES =
      integer(
              "bridge_max_bytes",
              PubSubSourceSettings.DEFAULT_BRIDGE_MAX_BYTES,
              "Bytes held by the bridge; 0 disables.",
              "PIPE-24")
          .atLeast(0);

  static final Group PUBSUB =
      Group.object(
              "pubsub",
              "Salesforce Pub/Sub API (real-time events).",
              "PS-1",
              List.of(
                  PS_ENABLED,
                  PS_ENDPOINT,
                  PS_TLS,
                  PS_NUM_REQUESTED,
                  PS_REPLAY_PRESET,
                  PS_ON_INVALID_REPLAY,
                  PS_TOPICS,
                  PS_INCLUDE,
                  PS_EXCLUDE,
                  PS_REDISCOVERY,
                  PS_SAMPLE,
                  PS_BRIDGE_MAX_BYTES))
          .with(transforms("Transform rules of Pub/Sub entries."));

  // ---- eventlog_objects ----
  static final Setting ELO_ENABLED =
      bool("enabled", false, "Run the event-log-objects source.", "OBJ-1");
  static final Setting OBJ_NAME =
      string("name", null, "Object API name (SOQL identifier).", "CFG-10")
          .mandatory()
          .example("LoginEvent");
  static final Setting OBJ_TIMESTAMP_FIELD =
      string("timestamp_field", "EventDate", "Cursor field (SOQL identifier).", "OBJ-2");
  static final Setting OBJ_POLL_INTERVAL =
      duration(
              "poll_interval", ObjectSettings.DEFAULT_POLL_INTERVAL, "Time between polls.", "OBJ-1")
          .greaterThan(0);
  static final Setting OBJ_LOOKBACK =
      duration("lookback", ObjectSettings.DEFAULT_LOOKBACK, "First-run window.", "OBJ-3");
  static final Setting OBJ_SETTLE_WINDOW =
      duration(
          "settle_window",
          ObjectSettings.DEFAULT_SETTLE_WINDOW,
          "Rows younger than this wait.",
          "OBJ-6");
  static final Setting OBJ_BIG_OBJECT =
      bool("big_object", false, "Big object: DESC drain.", "OBJ-5");
  static final Setting OBJ_MAX_CATCHUP_RECORDS =
      integer(
              "max_catchup_records",
              ObjectSettings.DEFAULT_MAX_CATCHUP_RECORDS,
              "Rows held by one drain; 0 = unbounded (big objects).",
              "OBJ-8")
          .atLeast(0);
  static final Setting OBJ_MAX_CATCHUP_BYTES =
      integer(
              "max_catchup_bytes",
              ObjectSettings.DEFAULT_MAX_CATCHUP_BYTES,
              "Canonical-JSON bytes held by one drain; 0 = unbounded.",
              "OBJ-8")
          .atLeast(0);
  static final Setting OBJ_TIEBREAK_FIELD =
      string("tiebreak_field", "EventIdentifier", "Index field paging a tie group.", "OBJ-7");

  static final Group OBJECTS =
      Group.listOf(
          "objects",
          "One polled event-log object.",
          "OBJ-1",
          List.of(
              OBJ_NAME,
              OBJ_TIMESTAMP_FIELD,
              OBJ_POLL_INTERVAL,
              OBJ_LOOKBACK,
              OBJ_SETTLE_WINDOW,
              SAMPLE,
              OBJ_BIG_OBJECT,
              OBJ_MAX_CATCHUP_RECORDS,
              OBJ_MAX_CATCHUP_BYTES,
              OBJ_TIEBREAK_FIELD,
              REVISIT_WINDOW,
              REVISIT_INTERVAL,
              REVISIT_MAX_KEYS));
  static final Group EVENTLOG_OBJECTS =
      Group.object(
              "eventlog_objects",
              "Event-log objects polled with SOQL.",
              "OBJ-1",
              List.of(ELO_ENABLED))
          .with(OBJECTS, transforms("Transform rules applied to every object."));

  // ---- eventlogfile ----
  static final Setting ELF_ENABLED =
      bool("enabled", false, "Run the EventLogFile source (needs event_types).", "CFG-17");
  static final Setting ELF_INTERVAL =
      choice("interval", "Hourly", List.of("Hourly", "Daily"), "Which files to read.", "ELF-1");
  static final Setting ELF_EXCLUDE =
      list("exclude", List.of(), "Exact type names skipped by discovery.", "ELF-2");
  static final Setting ELF_POLL_INTERVAL =
      duration(
              "poll_interval",
              EventLogFileSettings.DEFAULT_POLL_INTERVAL,
              "Time between cycles.",
              "ELF-3")
          .greaterThan(0);
  static final Setting ELF_LOOKBACK =
      duration("lookback", EventLogFileSettings.DEFAULT_LOOKBACK, "First-run window.", "ELF-4");
  static final Setting ELF_TIMESTAMP_COLUMN =
      string(
          "timestamp_column",
          EventLogFileSettings.DEFAULT_TIMESTAMP_COLUMN,
          "CSV column tried first for the timestamp.",
          "ELF-14");
  static final Setting ELF_PAGE_SIZE =
      integer("page_size", 1000, "Files listed per type per cycle.", "ELF-5")
          .atLeast(1)
          .atMost(50_000);
  static final Setting ELF_SETTLE_WINDOW =
      duration("settle_window", null, "Files younger than this wait.", "CFG-18, ELF-7")
          .defaultText("5m when interval is Hourly, else 0s");
  static final Setting ELF_DOWNLOAD_MAX_AGE =
      duration(
          "download_max_age",
          EventLogFileSettings.DEFAULT_DOWNLOAD_MAX_AGE,
          "A failing file is abandoned once older than this; 0 = at once.",
          "ELF-12");
  static final Setting ELF_CONCURRENCY =
      integer("concurrency", 4, "Types processed at once.", "ELF-1").atLeast(1);

  static final Setting ET_NAME =
      string("name", null, "EventType (SOQL identifier) or \"*\".", "CFG-10, ELF-2")
          .mandatory()
          .example("Login");
  static final Setting ET_SMF =
      list(
              "structured_metadata_fields",
              null,
              "Per-type metadata fields; null = global list, [] = none.",
              "SRC-9")
          .defaultText("null (global list)");
  static final Setting ET_LABELS =
      list("labels", List.of(), "CSV columns promoted to stream labels.", "CFG-16");
  static final Setting ET_SAMPLE = SAMPLE;

  static final Group EVENT_TYPES =
      Group.listOf(
              "event_types",
              "One EventLogFile type (a bare string X means {name: X}).",
              "CFG-17",
              List.of(ET_NAME, ET_SMF, ET_LABELS, ET_SAMPLE))
          .stringItems();
  static final Group EVENTLOGFILE =
      Group.object(
              "eventlogfile",
              "EventLogFile CSV downloads.",
              "ELF-1",
              List.of(
                  ELF_ENABLED,
                  ELF_INTERVAL,
                  ELF_EXCLUDE,
                  ELF_POLL_INTERVAL,
                  ELF_LOOKBACK,
                  ELF_TIMESTAMP_COLUMN,
                  ELF_PAGE_SIZE,
                  ELF_SETTLE_WINDOW,
                  ELF_DOWNLOAD_MAX_AGE,
                  ELF_CONCURRENCY))
          .with(EVENT_TYPES, transforms("Transform rules of EventLogFile rows."));

  // ---- apexlog ----
  static final Setting APX_ENABLED = bool("enabled", false, "Run the ApexLog source.", "APX-1");
  static final Setting APX_POLL_INTERVAL =
      duration(
              "poll_interval",
              ApexLogSettings.DEFAULT_POLL_INTERVAL,
              "Time between polls.",
              "APX-1")
          .greaterThan(0);
  static final Setting APX_LOOKBACK =
      duration("lookback", ApexLogSettings.DEFAULT_LOOKBACK, "First-run window.", "APX-2");
  static final Setting APX_USERS =
      list("users", List.of(), "Exact usernames; empty = all logs.", "CFG-10");
  static final Setting APX_MAX_BODY_BYTES =
      integer(
              "max_body_bytes",
              ApexLogSettings.DEFAULT_MAX_BODY_BYTES,
              "Largest log body downloaded.",
              "APX-4")
          .greaterThan(0);

  static final Group APEXLOG =
      Group.object(
              "apexlog",
              "ApexLog debug logs.",
              "APX-1",
              List.of(
                  APX_ENABLED,
                  APX_POLL_INTERVAL,
                  APX_LOOKBACK,
                  APX_USERS,
                  APX_MAX_BODY_BYTES,
                  SAMPLE,
                  REVISIT_WINDOW,
                  REVISIT_INTERVAL,
                  REVISIT_MAX_KEYS))
          .with(transforms("Transform rules of ApexLog metadata (never the body)."));

  /** The {@code sources} object. */
  static final Group SOURCES =
      Group.object(
              "sources",
              "What to read from the org.",
              "SRC-1",
              List.of(ALLOW_OVERLAP, TRANSFORM_SALT))
          .with(PUBSUB, EVENTLOG_OBJECTS, EVENTLOGFILE, APEXLOG);

  private SourceKeys() {}
}
