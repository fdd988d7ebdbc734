package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.list;
import static io.sf2loki.core.settings.Setting.map;
import static io.sf2loki.core.settings.Setting.secret;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.core.shape.Sampler;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.pubsub.PubSubChannels;
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

  static final Setting SAMPLE = Sampler.RATE;

  // ---- revisit (objects[] and apexlog) ----
  static final Setting REVISIT_WINDOW = RevisitSettings.WINDOW;
  static final Setting REVISIT_INTERVAL = RevisitSettings.INTERVAL;
  static final Setting REVISIT_MAX_KEYS = RevisitSettings.MAX_KEYS;

  // ---- sources ----
  static final Setting ALLOW_OVERLAP =
      bool("allow_overlap", false, "Disable the overlap guard.", "SRC-22, SRC-23, SRC-24");
  static final Setting TRANSFORM_SALT =
      secret("transform_salt", "Salt for hash transform rules.", "CFG-24, XF-2");

  // ---- pubsub ----
  static final Setting PS_ENABLED = bool("enabled", true, "Run the Pub/Sub source.", "PS-1");
  static final Setting PS_ENDPOINT = PubSubChannels.Settings.ENDPOINT;
  static final Setting PS_TLS = PubSubChannels.Settings.TLS;
  static final Setting PS_NUM_REQUESTED = PubSubReaderSettings.NUM_REQUESTED;
  static final Setting PS_REPLAY_PRESET = PubSubReaderSettings.REPLAY_PRESET;
  static final Setting PS_ON_INVALID_REPLAY = PubSubReaderSettings.ON_INVALID_REPLAY;
  static final Setting PS_TOPICS = PubSubSourceSettings.TOPICS;
  static final Setting PS_INCLUDE = PubSubSourceSettings.INCLUDE;
  static final Setting PS_EXCLUDE = PubSubSourceSettings.EXCLUDE;
  static final Setting PS_REDISCOVERY = PubSubSourceSettings.REDISCOVERY_INTERVAL;
  static final Setting PS_SAMPLE = PubSubReaderSettings.SAMPLE;
  static final Setting PS_BRIDGE_MAX_BYTES = PubSubSourceSettings.BRIDGE_MAX_BYTES;

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
  static final Setting OBJ_NAME = ObjectSettings.NAME;
  static final Setting OBJ_TIMESTAMP_FIELD = ObjectSettings.TIMESTAMP_FIELD;
  static final Setting OBJ_POLL_INTERVAL = ObjectSettings.POLL_INTERVAL;
  static final Setting OBJ_LOOKBACK = ObjectSettings.LOOKBACK;
  static final Setting OBJ_SETTLE_WINDOW = ObjectSettings.SETTLE_WINDOW;
  static final Setting OBJ_BIG_OBJECT = ObjectSettings.BIG_OBJECT;
  static final Setting OBJ_MAX_CATCHUP_RECORDS = ObjectSettings.MAX_CATCHUP_RECORDS;
  static final Setting OBJ_MAX_CATCHUP_BYTES = ObjectSettings.MAX_CATCHUP_BYTES;
  static final Setting OBJ_TIEBREAK_FIELD = ObjectSettings.TIEBREAK_FIELD;

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
  static final Setting ELF_INTERVAL = EventLogFileSettings.INTERVAL;
  static final Setting ELF_EXCLUDE = EventLogFileSettings.EXCLUDE;
  static final Setting ELF_POLL_INTERVAL = EventLogFileSettings.POLL_INTERVAL;
  static final Setting ELF_LOOKBACK = EventLogFileSettings.LOOKBACK;
  static final Setting ELF_TIMESTAMP_COLUMN = EventLogFileSettings.TIMESTAMP_COLUMN;
  static final Setting ELF_PAGE_SIZE = EventLogFileSettings.PAGE_SIZE;
  static final Setting ELF_SETTLE_WINDOW = EventLogFileSettings.SETTLE_WINDOW;
  static final Setting ELF_DOWNLOAD_MAX_AGE = EventLogFileSettings.DOWNLOAD_MAX_AGE;
  static final Setting ELF_CONCURRENCY = EventLogFileSettings.CONCURRENCY;

  static final Setting ET_NAME = EventLogFileSettings.EventTypeSettings.NAME;
  static final Setting ET_SMF = EventLogFileSettings.EventTypeSettings.STRUCTURED_METADATA_FIELDS;
  static final Setting ET_LABELS = EventLogFileSettings.EventTypeSettings.LABELS;
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
  static final Setting APX_POLL_INTERVAL = ApexLogSettings.POLL_INTERVAL;
  static final Setting APX_LOOKBACK = ApexLogSettings.LOOKBACK;
  static final Setting APX_USERS = ApexLogSettings.USERS;
  static final Setting APX_MAX_BODY_BYTES = ApexLogSettings.MAX_BODY_BYTES;

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
