package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.app.config.CoordinateConfig.FileLease;
import io.sf2loki.app.config.CoordinateConfig.K8sLease;
import io.sf2loki.app.config.LokiConfig.Batch;
import io.sf2loki.app.config.LokiConfig.Egress;
import io.sf2loki.app.config.SalesforceConfig.AuthMode;
import io.sf2loki.app.config.SalesforceConfig.Environment;
import io.sf2loki.app.config.ServiceConfig.Telemetry;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Binds a merged, interpolated configuration tree to {@link Sf2lokiConfig} and applies the
 * structural and cross-field rules of SPEC §1.1–1.2 (CFG-4…CFG-24), collecting every problem.
 */
final class ConfigBinder {
  static final Pattern SOQL_IDENTIFIER = Pattern.compile("^[A-Za-z0-9_]+$");
  static final Pattern LABEL_NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*$");
  static final Pattern ORG_NAME = Pattern.compile("^[A-Za-z0-9_-]+$");
  static final Pattern USERNAME = Pattern.compile("^[A-Za-z0-9._%+\\-@]+$");
  static final Pattern API_VERSION = Pattern.compile("^\\d+\\.\\d+$");
  static final Pattern ORG_ID = Pattern.compile("^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$");

  static final String PRODUCTION_LOGIN = "https://login.salesforce.com";
  static final String SANDBOX_LOGIN = "https://test.salesforce.com";

  /** CFG-15 allowlist of static label keys. */
  static final Set<String> STATIC_LABEL_ALLOWLIST =
      Set.of("job", "service_name", "source", "event_type", "sf_org_id", "environment", "org");

  /** CFG-16 names a promoted ELF column may not use. */
  static final Set<String> RESERVED_ELF_LABELS =
      Set.of(
          "source",
          "event_type",
          "job",
          "service_name",
          "sf_org_id",
          "environment",
          "org",
          "backfill",
          "late");

  static final int MAX_STREAM_LABELS = 15;

  static final Set<String> ROOT_KEYS =
      Set.of("salesforce", "orgs", "sources", "sink", "state", "coordinate", "service");
  static final Set<String> SALESFORCE_KEYS =
      Set.of(
          "login_url",
          "environment",
          "auth_mode",
          "client_id",
          "client_secret",
          "client_secret_file",
          "username",
          "private_key",
          "private_key_file",
          "api_version",
          "org_id",
          "jwt_audience",
          "token_ttl",
          "limits");
  static final Set<String> LIMITS_KEYS = Set.of("enabled", "poll_interval", "reserve_percent");
  static final Set<String> ORG_KEYS = Set.of("name", "salesforce", "sources");
  static final Set<String> SOURCES_KEYS =
      Set.of(
          "allow_overlap",
          "transform_salt",
          "transform_salt_file",
          "pubsub",
          "eventlog_objects",
          "eventlogfile",
          "apexlog");
  static final Set<String> PUBSUB_KEYS =
      Set.of(
          "enabled",
          "endpoint",
          "tls",
          "default_num_requested",
          "replay_preset",
          "on_invalid_replay",
          "topics",
          "include",
          "exclude",
          "rediscovery_interval",
          "sample",
          "transforms",
          "bridge_max_bytes");
  static final Set<String> ELO_KEYS = Set.of("enabled", "objects", "transforms");
  static final Set<String> OBJECT_KEYS =
      Set.of(
          "name",
          "timestamp_field",
          "poll_interval",
          "lookback",
          "settle_window",
          "sample",
          "big_object",
          "max_catchup_records",
          "max_catchup_bytes",
          "tiebreak_field",
          "revisit_window",
          "revisit_interval",
          "revisit_max_keys");
  static final Set<String> ELF_KEYS =
      Set.of(
          "enabled",
          "interval",
          "event_types",
          "exclude",
          "poll_interval",
          "lookback",
          "timestamp_column",
          "page_size",
          "settle_window",
          "download_max_age",
          "transforms",
          "concurrency");
  static final Set<String> EVENT_TYPE_KEYS =
      Set.of("name", "structured_metadata_fields", "labels", "sample");
  static final Set<String> APEX_KEYS =
      Set.of(
          "enabled",
          "poll_interval",
          "lookback",
          "users",
          "max_body_bytes",
          "sample",
          "transforms",
          "revisit_window",
          "revisit_interval",
          "revisit_max_keys");
  static final Set<String> TRANSFORM_KEYS =
      Set.of("action", "fields", "match", "pattern", "replacement", "name");
  static final Set<String> SINK_KEYS = Set.of("loki");
  static final Set<String> LOKI_KEYS =
      Set.of(
          "url",
          "tenant_id",
          "auth_token",
          "auth_token_file",
          "encoding",
          "compression",
          "labels",
          "structured_metadata_fields",
          "structured_metadata",
          "late_entries",
          "out_of_order_window",
          "max_tracked_streams",
          "batch",
          "egress",
          "snappy_tempdir");
  static final Set<String> BATCH_KEYS =
      Set.of(
          "max_entries",
          "max_bytes",
          "flush_interval",
          "max_line_bytes",
          "queue_maxsize",
          "queue_max_bytes");
  static final Set<String> EGRESS_KEYS =
      Set.of("max_lines_per_second", "max_bytes_per_second", "daily_byte_budget", "budget_action");
  static final Set<String> COORDINATE_KEYS =
      Set.of("type", "file_lease", "k8s_lease", "s3_lease", "gcs_lease");
  static final Set<String> FILE_LEASE_KEYS = Set.of("path", "ttl", "renew_interval", "holder_id");
  static final Set<String> K8S_LEASE_KEYS =
      Set.of("namespace", "name", "identity", "lease_duration", "renew_interval", "kubeconfig");
  static final Set<String> SERVICE_KEYS =
      Set.of(
          "log_level",
          "log_format",
          "health_addr",
          "shutdown_grace",
          "unready_after_sink_failing",
          "telemetry");
  static final Set<String> TELEMETRY_KEYS =
      Set.of(
          "enabled",
          "endpoint",
          "auth",
          "basic_auth_user",
          "basic_auth_token",
          "basic_auth_token_file",
          "headers",
          "export_interval",
          "resource_attributes",
          "prometheus");
  static final Set<String> PROMETHEUS_KEYS = Set.of("enabled");

  private final SecretResolver secrets;
  private final Section.Problems problems = new Section.Problems();
  private final List<String> warnings = new ArrayList<>();

  ConfigBinder(SecretResolver secrets) {
    this.secrets = secrets;
  }

  Sf2lokiConfig bind(JsonNode tree) {
    Section root = new Section(tree, "", problems, ROOT_KEYS);

    // sink first: per-org label checks need sink.loki.labels
    LokiConfig loki = null;
    if (!root.has("sink")) {
      root.problem("sink", "required (set sink.loki.url)");
    } else {
      Section sink = root.section("sink", SINK_KEYS);
      if (!sink.has("loki")) {
        sink.problem("loki", "required (set sink.loki.url)");
      } else {
        loki = loki(sink.section("loki", LOKI_KEYS));
      }
    }

    boolean hasSalesforce = root.has("salesforce");
    List<JsonNode> orgItems = root.list("orgs");
    boolean multiOrg = !orgItems.isEmpty();
    List<OrgConfig> orgs = new ArrayList<>();
    if (hasSalesforce && multiOrg) {
      root.problem("orgs", "set either salesforce (single org) or orgs (multi-org), not both");
    } else if (!hasSalesforce && !multiOrg) {
      root.problem("salesforce", "required (or configure a non-empty orgs list)");
    }
    if (multiOrg) {
      if (root.has("sources")) {
        SourcesConfig top = sources(root.section("sources", SOURCES_KEYS), false, "");
        SourcesConfig dflt = defaultSources();
        if (!top.equals(dflt)) {
          root.problem(
              "sources", "must not be set when orgs is used (configure orgs[].sources instead)");
        }
      }
      Set<String> names = new HashSet<>();
      for (int i = 0; i < orgItems.size(); i++) {
        Section o = new Section(orgItems.get(i), "orgs." + i, problems, ORG_KEYS);
        String name = o.string("name", null);
        if (name == null || name.isEmpty()) {
          o.problem("name", "required");
          name = "";
        } else if (!ORG_NAME.matcher(name).matches()) {
          o.problem("name", "must match " + ORG_NAME.pattern() + " (got '" + name + "')");
        } else if (!names.add(name)) {
          o.problem("name", "duplicate org name '" + name + "'");
        }
        String prefix = "org '" + name + "': ";
        SalesforceConfig sf = null;
        if (!o.has("salesforce")) {
          o.problem("salesforce", "required");
        } else {
          sf = salesforce(o.section("salesforce", SALESFORCE_KEYS), prefix);
        }
        SourcesConfig src = sources(o.section("sources", SOURCES_KEYS), true, prefix);
        orgs.add(new OrgConfig(name, sf, src));
      }
    } else if (hasSalesforce) {
      SalesforceConfig sf = salesforce(root.section("salesforce", SALESFORCE_KEYS), "");
      SourcesConfig src = sources(root.section("sources", SOURCES_KEYS), true, "");
      orgs.add(new OrgConfig("", sf, src));
    }

    if (loki != null) {
      checkStaticLabels(loki, multiOrg, "sink.loki.labels");
      for (int i = 0; i < orgs.size(); i++) {
        String base = multiOrg ? "orgs." + i + ".sources" : "sources";
        checkElfLabelCount(orgs.get(i).sources().eventlogfile(), loki, multiOrg, base);
        RevisitWindowCheck.check(orgs.get(i).sources(), loki.outOfOrderWindow(), base, warnings);
      }
    }

    StateConfig state = StateBinding.bind(root.section("state", StateBinding.KEYS));
    CoordinateConfig coordinate = coordinate(root.section("coordinate", COORDINATE_KEYS));
    ServiceConfig service = service(root.section("service", SERVICE_KEYS), loki);

    if (!problems.isEmpty()) {
      throw new ConfigException(problems.list());
    }
    return new Sf2lokiConfig(
        orgs, multiOrg, new SinkConfig(loki), state, coordinate, service, warnings);
  }

  private SourcesConfig defaultSources() {
    Section.Problems scratch = new Section.Problems();
    ConfigBinder b = new ConfigBinder(secrets);
    return b.sources(
        new Section(JsonNodeFactory.instance.objectNode(), "", scratch, SOURCES_KEYS), false, "");
  }

  // ---- salesforce ----

  private SalesforceConfig salesforce(Section s, String orgPrefix) {
    Environment env =
        s.enumValue("environment", Environment.values(), Environment.PRODUCTION, false);
    AuthMode mode = s.enumValue("auth_mode", AuthMode.values(), AuthMode.JWT_BEARER, false);
    String clientId = s.string("client_id", null);
    if (clientId == null || clientId.isEmpty()) {
      s.problem("client_id", orgPrefix + "required");
      clientId = "";
    }
    Optional<Secret> clientSecret = secrets.resolve(s, "client_secret");
    Optional<Secret> privateKey = secrets.resolve(s, "private_key");
    String username = s.string("username", "");
    if (!username.isEmpty() && !USERNAME.matcher(username).matches()) {
      s.problem("username", orgPrefix + "must match " + USERNAME.pattern());
    }
    if (mode == AuthMode.JWT_BEARER) {
      if (privateKey.isEmpty()) {
        s.problem(
            "private_key",
            orgPrefix
                + "required when auth_mode is jwt_bearer (set private_key or private_key_file)");
      }
      if (username.isEmpty()) {
        s.problem("username", orgPrefix + "required when auth_mode is jwt_bearer");
      }
    } else if (clientSecret.isEmpty()) {
      s.problem(
          "client_secret",
          orgPrefix
              + "required when auth_mode is client_credentials (set client_secret or"
              + " client_secret_file)");
    }
    String apiVersion = s.string("api_version", "60.0");
    if (!API_VERSION.matcher(apiVersion).matches()) {
      s.problem("api_version", "must look like 60.0 (got '" + apiVersion + "')");
    }
    Optional<String> orgId = s.optString("org_id").filter(v -> !v.isEmpty());
    if (orgId.isPresent() && !ORG_ID.matcher(orgId.get()).matches()) {
      s.problem("org_id", "must be a 15- or 18-character alphanumeric org id");
    }
    String loginUrl = s.string("login_url", "");
    if (loginUrl.isEmpty()) {
      loginUrl = env == Environment.SANDBOX ? SANDBOX_LOGIN : PRODUCTION_LOGIN;
    }
    if (mode == AuthMode.CLIENT_CREDENTIALS && isGenericLoginHost(loginUrl)) {
      s.problem(
          "login_url",
          orgPrefix
              + "client_credentials needs the org's My Domain URL (e.g."
              + " https://yourdomain.my.salesforce.com), not "
              + loginUrl);
    }
    Duration tokenTtl = s.duration("token_ttl", Duration.ofHours(1));
    if (tokenTtl.compareTo(Duration.ofMinutes(5)) < 0) {
      s.problem("token_ttl", "must be at least 5m");
    }
    Section l = s.section("limits", LIMITS_KEYS);
    SalesforceConfig.Limits limits =
        new SalesforceConfig.Limits(
            l.bool("enabled", false),
            l.positiveDuration("poll_interval", Duration.ofMinutes(5)),
            ApiReserveKey.bind(l)); // OBS-21
    return new SalesforceConfig(
        loginUrl,
        env,
        mode,
        clientId,
        clientSecret,
        username,
        privateKey,
        apiVersion,
        orgId,
        s.string("jwt_audience", ""),
        tokenTtl,
        limits);
  }

  private static boolean isGenericLoginHost(String url) {
    String u = url.strip();
    while (u.endsWith("/")) {
      u = u.substring(0, u.length() - 1);
    }
    return u.equalsIgnoreCase(PRODUCTION_LOGIN) || u.equalsIgnoreCase(SANDBOX_LOGIN);
  }

  // ---- sources ----

  private SourcesConfig sources(Section s, boolean emitWarnings, String orgPrefix) {
    Optional<Secret> salt = secrets.resolve(s, "transform_salt");
    PubSubConfig pubsub = pubsub(s.section("pubsub", PUBSUB_KEYS), emitWarnings, orgPrefix);
    EventLogObjectsConfig elo = eventlogObjects(s.section("eventlog_objects", ELO_KEYS));
    EventLogFileConfig elf = eventlogfile(s.section("eventlogfile", ELF_KEYS));
    ApexLogConfig apex = apexlog(s.section("apexlog", APEX_KEYS));
    if (emitWarnings && salt.isEmpty()) {
      warnHashWithoutSalt(orgPrefix, "pubsub", pubsub.transforms());
      warnHashWithoutSalt(orgPrefix, "eventlog_objects", elo.transforms());
      warnHashWithoutSalt(orgPrefix, "eventlogfile", elf.transforms());
      warnHashWithoutSalt(orgPrefix, "apexlog", apex.transforms());
    }
    return new SourcesConfig(s.bool("allow_overlap", false), salt, pubsub, elo, elf, apex);
  }

  private void warnHashWithoutSalt(String orgPrefix, String source, List<TransformRule> rules) {
    for (int i = 0; i < rules.size(); i++) {
      if (rules.get(i).action() == TransformRule.Action.HASH) {
        warnings.add(
            orgPrefix
                + "hash transform rule '"
                + rules.get(i).metricName(i)
                + "' of source "
                + source
                + " runs without transform_salt; hashes of low-entropy values can be reversed"
                + " (CFG-24)");
      }
    }
  }

  private PubSubConfig pubsub(Section s, boolean emitWarnings, String orgPrefix) {
    String endpoint = s.string("endpoint", "api.pubsub.salesforce.com:7443");
    boolean tls = s.bool("tls", true);
    if (emitWarnings && !tls && !isLoopbackTarget(endpoint)) {
      warnings.add(
          orgPrefix
              + "sources.pubsub.tls is false for non-loopback endpoint "
              + endpoint
              + "; Pub/Sub traffic is sent in plaintext");
    }
    int numRequested = s.intValue("default_num_requested", 100);
    if (numRequested < 1 || numRequested > 100) {
      s.problem("default_num_requested", "must be between 1 and 100 (got " + numRequested + ")");
    }
    Map<String, Double> sample = new LinkedHashMap<>();
    JsonNode sampleNode = s.mapping("sample");
    if (sampleNode != null) {
      Iterator<Map.Entry<String, JsonNode>> it = sampleNode.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        String p = s.path("sample") + "." + e.getKey();
        Double rate = Section.toDouble(e.getValue());
        if (rate == null) {
          problems.add(p, "expected a number");
        } else {
          checkRate(p, rate);
          sample.put(e.getKey(), rate);
        }
      }
    }
    long bridgeMax = s.integer("bridge_max_bytes", 134_217_728L);
    nonNegative(s, "bridge_max_bytes", bridgeMax);
    List<String> topics = s.stringList("topics", List.of());
    if (emitWarnings) {
      for (String t : topics) {
        if (!t.equals("*") && !t.startsWith("/event/") && !t.startsWith("/data/")) {
          warnings.add(
              orgPrefix
                  + "sources.pubsub.topics: '"
                  + t
                  + "' does not start with /event/ or /data/; Salesforce topic names do"
                  + " (e.g. /event/LoginEventStream, /data/AccountChangeEvent)");
        }
      }
    }
    return new PubSubConfig(
        s.bool("enabled", true),
        endpoint,
        tls,
        numRequested,
        s.enumValue(
            "replay_preset",
            PubSubConfig.ReplayPreset.values(),
            PubSubConfig.ReplayPreset.CUSTOM,
            false),
        s.enumValue(
            "on_invalid_replay",
            PubSubConfig.InvalidReplayPreset.values(),
            PubSubConfig.InvalidReplayPreset.EARLIEST,
            false),
        topics,
        s.stringList("include", List.of("*")),
        s.stringList("exclude", List.of()),
        s.duration("rediscovery_interval", Duration.ofHours(1)),
        Collections.unmodifiableMap(sample),
        transforms(s, "transforms", Set.of()),
        bridgeMax);
  }

  static boolean isLoopbackTarget(String endpoint) {
    String host = endpoint.strip();
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      host = end > 0 ? host.substring(1, end) : host;
    } else if (host.indexOf(':') == host.lastIndexOf(':') && host.contains(":")) {
      host = host.substring(0, host.indexOf(':'));
    }
    return host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("::1");
  }

  private EventLogObjectsConfig eventlogObjects(Section s) {
    List<ObjectConfig> objects = new ArrayList<>();
    List<JsonNode> items = s.list("objects");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      Section o = new Section(items.get(i), s.path("objects") + "." + i, problems, OBJECT_KEYS);
      String name = requiredIdentifier(o, "name");
      // SOQL names are case-insensitive: two entries would poll one object under two cursors
      if (!name.isEmpty() && !names.add(name.toLowerCase(Locale.ROOT))) {
        o.problem("name", "duplicate object name '" + name + "'");
      }
      String tsField = identifier(o, "timestamp_field", "EventDate");
      double sample = o.number("sample", 1.0);
      checkRate(o.path("sample"), sample);
      long maxRecords = o.integer("max_catchup_records", 20_000L);
      nonNegative(o, "max_catchup_records", maxRecords);
      long maxBytes = o.integer("max_catchup_bytes", 67_108_864L);
      nonNegative(o, "max_catchup_bytes", maxBytes);
      objects.add(
          new ObjectConfig(
              name,
              tsField,
              o.positiveDuration("poll_interval", Duration.ofMinutes(5)),
              o.duration("lookback", Duration.ofHours(1)),
              o.duration("settle_window", Duration.ofMinutes(1)),
              sample,
              o.bool("big_object", false),
              maxRecords,
              maxBytes,
              identifier(o, "tiebreak_field", "EventIdentifier"),
              revisit(o)));
    }
    return new EventLogObjectsConfig(
        s.bool("enabled", false), List.copyOf(objects), transforms(s, "transforms", Set.of()));
  }

  private EventLogFileConfig eventlogfile(Section s) {
    boolean enabled = s.bool("enabled", false);
    EventLogFileConfig.Interval interval =
        s.enumValue(
            "interval",
            EventLogFileConfig.Interval.values(),
            EventLogFileConfig.Interval.HOURLY,
            false);
    List<EventTypeConfig> types = new ArrayList<>();
    List<JsonNode> items = s.list("event_types");
    Set<String> promoted = new LinkedHashSet<>();
    Set<String> seenTypes = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      String p = s.path("event_types") + "." + i;
      if (item.isTextual()) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.set("name", item);
        item = obj;
      }
      Section t = new Section(item, p, problems, EVENT_TYPE_KEYS);
      String name = t.string("name", null);
      if (name == null || name.isEmpty()) {
        t.problem("name", "required");
        name = "";
      } else if (!name.equals("*") && !SOQL_IDENTIFIER.matcher(name).matches()) {
        t.problem("name", "must be \"*\" or match " + SOQL_IDENTIFIER.pattern());
      }
      Optional<List<String>> smf =
          t.has("structured_metadata_fields")
              ? Optional.of(t.stringList("structured_metadata_fields", List.of()))
              : Optional.empty();
      List<String> labels = t.stringList("labels", List.of());
      for (String label : labels) {
        if (!LABEL_NAME.matcher(label).matches()) {
          t.problem("labels", "'" + label + "' must match " + LABEL_NAME.pattern());
        } else if (RESERVED_ELF_LABELS.contains(label)) {
          t.problem("labels", "'" + label + "' is reserved and cannot be a promoted column label");
        }
      }
      promoted.addAll(labels);
      double sample = t.number("sample", 1.0);
      checkRate(t.path("sample"), sample);
      if (!name.isEmpty() && !seenTypes.add(name.toLowerCase(Locale.ROOT))) {
        // kept loadable for 1.x compatibility; the source uses the first entry of a name
        warnings.add(
            p
                + ": duplicate event type '"
                + name
                + "' is ignored; the settings of its first entry apply");
      }
      types.add(new EventTypeConfig(name, smf, labels, sample));
    }
    if (enabled && types.isEmpty()) {
      s.problem(
          "event_types", "must not be empty when eventlogfile is enabled (use \"*\" to discover)");
    }
    int pageSize = s.intValue("page_size", 1000);
    if (pageSize < 1 || pageSize > 50_000) {
      s.problem("page_size", "must be between 1 and 50000 (got " + pageSize + ")");
    }
    int concurrency = s.intValue("concurrency", 4);
    if (concurrency < 1) {
      s.problem("concurrency", "must be at least 1");
    }
    Duration settleDefault =
        interval == EventLogFileConfig.Interval.HOURLY ? Duration.ofMinutes(5) : Duration.ZERO;
    return new EventLogFileConfig(
        enabled,
        interval,
        List.copyOf(types),
        s.stringList("exclude", List.of()),
        s.positiveDuration("poll_interval", Duration.ofHours(1)),
        s.duration("lookback", Duration.ofHours(24)),
        s.string("timestamp_column", "TIMESTAMP_DERIVED"),
        pageSize,
        s.duration("settle_window", settleDefault),
        s.duration("download_max_age", Duration.ofHours(24)),
        transforms(s, "transforms", promoted),
        concurrency);
  }

  private ApexLogConfig apexlog(Section s) {
    List<String> users = s.stringList("users", List.of());
    for (int i = 0; i < users.size(); i++) {
      if (!USERNAME.matcher(users.get(i)).matches()) {
        problems.add(
            s.path("users") + "." + i, "must be an exact username matching " + USERNAME.pattern());
      }
    }
    long maxBody = s.integer("max_body_bytes", 5_242_880L);
    if (maxBody <= 0) {
      s.problem("max_body_bytes", "must be greater than zero");
    }
    double sample = s.number("sample", 1.0);
    checkRate(s.path("sample"), sample);
    return new ApexLogConfig(
        s.bool("enabled", false),
        s.positiveDuration("poll_interval", Duration.ofMinutes(1)),
        s.duration("lookback", Duration.ofHours(1)),
        users,
        maxBody,
        sample,
        transforms(s, "transforms", Set.of()),
        revisit(s));
  }

  /** OBJ-13…OBJ-17, APX-10: the three revisit keys of an object or of {@code apexlog}. */
  private static RevisitConfig revisit(Section s) {
    RevisitConfig d = RevisitConfig.DEFAULTS;
    int maxKeys = s.intValue("revisit_max_keys", d.maxKeys());
    if (maxKeys < 1 || maxKeys > 50_000) {
      s.problem(
          "revisit_max_keys", "must be between 1 and 50000 (the most rows one query returns)");
      maxKeys = d.maxKeys();
    }
    return new RevisitConfig(
        s.duration("revisit_window", d.window()),
        s.positiveDuration("revisit_interval", d.interval()),
        maxKeys);
  }

  private List<TransformRule> transforms(Section s, String key, Set<String> promotedLabels) {
    List<TransformRule> rules = new ArrayList<>();
    List<JsonNode> items = s.list(key);
    for (int i = 0; i < items.size(); i++) {
      Section r = new Section(items.get(i), s.path(key) + "." + i, problems, TRANSFORM_KEYS);
      TransformRule.Action action =
          r.enumValue("action", TransformRule.Action.values(), null, false);
      if (action == null) {
        if (!r.has("action")) {
          r.problem("action", "required");
        }
        continue;
      }
      List<String> fields = r.stringList("fields", List.of());
      Map<String, String> match = r.stringMap("match");
      Optional<String> pattern = r.optString("pattern");
      String replacement = r.string("replacement", "");
      if (action == TransformRule.Action.DROP_ROW) {
        if (!fields.isEmpty()) {
          r.problem("fields", "not allowed for drop_row (use match)");
        }
        if (match.isEmpty()) {
          r.problem("match", "required and non-empty for drop_row");
        }
      } else {
        if (fields.isEmpty()) {
          r.problem("fields", "required and non-empty for " + action.yaml());
        }
        if (!match.isEmpty()) {
          r.problem("match", "only allowed for drop_row");
        }
      }
      if (action == TransformRule.Action.REGEX_REPLACE) {
        if (pattern.isEmpty()) {
          r.problem("pattern", "required for regex_replace");
        } else {
          checkPatternCompiles(r, pattern.get());
        }
      } else if (pattern.isPresent()) {
        r.problem("pattern", "only allowed for regex_replace");
      }
      if (action == TransformRule.Action.DROP_FIELD) {
        for (String f : fields) {
          if (promotedLabels.contains(f)) {
            r.problem(
                "fields", "drop_field cannot remove '" + f + "', which is promoted via labels");
          }
        }
      }
      rules.add(
          new TransformRule(
              action,
              fields,
              Collections.unmodifiableMap(match),
              pattern,
              replacement,
              r.string("name", "")));
    }
    return List.copyOf(rules);
  }

  /**
   * A compile check only; the full XF-5 grammar check and translation belong to the transform
   * compiler.
   */
  private static void checkPatternCompiles(Section r, String pattern) {
    String javaPattern =
        pattern
            .replace("(?P<", "(?<")
            .replaceAll("\\(\\?P=([A-Za-z_][A-Za-z0-9_]*)\\)", "\\\\k<$1>");
    try {
      Pattern.compile(javaPattern);
    } catch (PatternSyntaxException e) {
      r.problem("pattern", "does not compile: " + e.getDescription());
    }
  }

  // ---- sink ----

  private LokiConfig loki(Section s) {
    String url = s.string("url", null);
    if (url == null || url.isBlank()) {
      s.problem("url", "required");
      url = "";
    } else {
      try {
        URI u = new URI(url);
        if (u.getScheme() == null
            || !(u.getScheme().equalsIgnoreCase("http") || u.getScheme().equalsIgnoreCase("https"))
            || u.getHost() == null) {
          s.problem("url", "must be an absolute http(s) URL, e.g. https://host/loki/api/v1/push");
        }
      } catch (URISyntaxException e) {
        s.problem("url", "is not a valid URL: " + e.getReason());
      }
    }
    LokiConfig.Encoding encoding =
        s.enumValue("encoding", LokiConfig.Encoding.values(), LokiConfig.Encoding.PROTOBUF, false);
    boolean compressionExplicit = s.has("compression");
    LokiConfig.Compression compression =
        s.enumValue(
            "compression", LokiConfig.Compression.values(), LokiConfig.Compression.SNAPPY, false);
    if (compressionExplicit) {
      if (encoding == LokiConfig.Encoding.PROTOBUF
          && compression != LokiConfig.Compression.SNAPPY) {
        warnings.add(
            "sink.loki.compression="
                + compression.yaml()
                + " is ignored with encoding=protobuf; protobuf bodies are always snappy (CFG-23)");
      } else if (encoding == LokiConfig.Encoding.JSON
          && compression == LokiConfig.Compression.SNAPPY) {
        warnings.add(
            "sink.loki.compression=snappy is not supported with encoding=json; JSON bodies are"
                + " sent uncompressed (use gzip or none) (CFG-23)");
      }
    }
    Duration outOfOrderWindow = s.duration("out_of_order_window", Duration.ofHours(1));
    if (outOfOrderWindow.isNegative()) {
      s.problem("out_of_order_window", "must not be negative");
    }
    int maxTrackedStreams = s.intValue("max_tracked_streams", 10_000);
    if (maxTrackedStreams < 1) {
      s.problem("max_tracked_streams", "must be at least 1");
    }
    Section b = s.section("batch", BATCH_KEYS);
    int maxEntries = b.intValue("max_entries", 1000);
    if (maxEntries < 1) {
      b.problem("max_entries", "must be at least 1");
    }
    long maxBytes = b.integer("max_bytes", 1_048_576L);
    if (maxBytes < 1024) {
      b.problem("max_bytes", "must be at least 1024");
    }
    int queueMax = b.intValue("queue_maxsize", 10_000);
    if (queueMax < 100) {
      b.problem("queue_maxsize", "must be at least 100");
    }
    long queueMaxBytes = b.integer("queue_max_bytes", 268_435_456L);
    nonNegative(b, "queue_max_bytes", queueMaxBytes);
    Batch batch =
        new Batch(
            maxEntries,
            maxBytes,
            b.positiveDuration("flush_interval", Duration.ofSeconds(1)),
            b.integer("max_line_bytes", 262_144L),
            queueMax,
            queueMaxBytes);
    Section e = s.section("egress", EGRESS_KEYS);
    double lines = e.number("max_lines_per_second", 0);
    if (lines < 0) {
      e.problem("max_lines_per_second", "must be at least 0");
    }
    double bytes = e.number("max_bytes_per_second", 0);
    if (bytes < 0) {
      e.problem("max_bytes_per_second", "must be at least 0");
    }
    long budget = e.integer("daily_byte_budget", 0);
    nonNegative(e, "daily_byte_budget", budget);
    Egress egress =
        new Egress(
            lines,
            bytes,
            budget,
            e.enumValue(
                "budget_action",
                LokiConfig.BudgetAction.values(),
                LokiConfig.BudgetAction.PAUSE,
                false));
    return new LokiConfig(
        url,
        s.optString("tenant_id").filter(t -> !t.isEmpty()),
        secrets.resolve(s, "auth_token"),
        encoding,
        compression,
        compressionExplicit,
        Collections.unmodifiableMap(s.stringMap("labels")),
        s.stringList("structured_metadata_fields", List.of()),
        s.enumValue(
            "structured_metadata",
            LokiConfig.StructuredMetadataMode.values(),
            LokiConfig.StructuredMetadataMode.AUTO,
            false),
        s.enumValue(
            "late_entries", LokiConfig.LateEntries.values(), LokiConfig.LateEntries.RESTAMP, false),
        outOfOrderWindow,
        maxTrackedStreams,
        batch,
        egress,
        snappyTempdir(s));
  }

  /** CFG-34: {@code sink.loki.snappy_tempdir}, an existing directory when set. */
  private static Optional<java.nio.file.Path> snappyTempdir(Section s) {
    String dir = s.string("snappy_tempdir", "");
    if (dir.isBlank()) {
      return Optional.empty();
    }
    java.nio.file.Path p = java.nio.file.Path.of(dir);
    if (!java.nio.file.Files.isDirectory(p)) {
      s.problem("snappy_tempdir", "not a directory: " + dir);
    }
    return Optional.of(p);
  }

  /** CFG-15: one problem listing every offending key. */
  private void checkStaticLabels(LokiConfig loki, boolean multiOrg, String path) {
    List<String> bad = new ArrayList<>();
    for (String k : loki.labels().keySet()) {
      boolean ok =
          STATIC_LABEL_ALLOWLIST.contains(k)
              && !k.equals("source")
              && !k.equals("event_type")
              && LABEL_NAME.matcher(k).matches()
              && !(multiOrg
                  && (k.equals("org") || k.equals("sf_org_id") || k.equals("environment")));
      if (!ok) {
        bad.add(k);
      }
    }
    if (!bad.isEmpty()) {
      String allowed =
          multiOrg ? "job, service_name" : "job, service_name, sf_org_id, environment, org";
      problems.add(
          path,
          "label key(s) "
              + String.join(", ", bad)
              + " not allowed; allowed static labels are "
              + allowed
              + (multiOrg
                  ? " (org, sf_org_id and environment are set per org in multi-org mode)"
                  : ""));
    }
  }

  /** CFG-16: the number of distinct label names an ELF stream can carry. */
  private void checkElfLabelCount(
      EventLogFileConfig elf, LokiConfig loki, boolean multiOrg, String base) {
    Set<String> common =
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
      common.add("org");
    }
    common.addAll(loki.labels().keySet());
    for (int i = 0; i < elf.eventTypes().size(); i++) {
      EventTypeConfig t = elf.eventTypes().get(i);
      Set<String> all = new TreeSet<>(common);
      all.addAll(t.labels());
      if (all.size() > MAX_STREAM_LABELS) {
        problems.add(
            base + ".eventlogfile.event_types." + i + ".labels",
            "event type '"
                + t.name()
                + "' would carry "
                + all.size()
                + " label names, more than Loki's default limit of "
                + MAX_STREAM_LABELS);
      }
    }
  }

  // ---- state, coordinate, service ----

  private CoordinateConfig coordinate(Section s) {
    CoordinateConfig.Type type =
        s.enumValue("type", CoordinateConfig.Type.values(), CoordinateConfig.Type.NOOP, false);
    Section f = s.section("file_lease", FILE_LEASE_KEYS);
    FileLease fl =
        new FileLease(
            Path.of(f.string("path", "/var/lib/sf2loki/leader.lease")),
            f.positiveDuration("ttl", Duration.ofSeconds(30)),
            f.positiveDuration("renew_interval", Duration.ofSeconds(10)),
            f.string("holder_id", ""));
    if (fl.renewInterval().multipliedBy(2).compareTo(fl.ttl()) >= 0) {
      f.problem("renew_interval", "2 × renew_interval must be less than ttl");
    }
    Section k = s.section("k8s_lease", K8S_LEASE_KEYS);
    K8sLease kl =
        new K8sLease(
            k.string("namespace", "default"),
            k.string("name", "sf2loki-leader"),
            k.string("identity", ""),
            k.positiveDuration("lease_duration", Duration.ofSeconds(30)),
            k.positiveDuration("renew_interval", Duration.ofSeconds(10)),
            k.optString("kubeconfig").filter(v -> !v.isEmpty()).map(Path::of));
    if (kl.renewInterval().multipliedBy(2).compareTo(kl.leaseDuration()) >= 0) {
      k.problem("renew_interval", "2 × renew_interval must be less than lease_duration");
    }
    return new CoordinateConfig(
        type, fl, kl, ObjectLeaseBinding.s3(s, type), ObjectLeaseBinding.gcs(s, type));
  }

  private ServiceConfig service(Section s, LokiConfig loki) {
    String healthAddr = s.string("health_addr", ":8080");
    checkHostPort(s, "health_addr", healthAddr);
    Section t = s.section("telemetry", TELEMETRY_KEYS);
    boolean enabled = t.bool("enabled", false);
    String endpoint = t.string("endpoint", "");
    ServiceConfig.TelemetryAuth auth =
        t.enumValue(
            "auth", ServiceConfig.TelemetryAuth.values(), ServiceConfig.TelemetryAuth.BASIC, false);
    String user = t.string("basic_auth_user", "");
    if (user.isEmpty() && loki != null) {
      user = loki.tenantId().orElse("");
    }
    Optional<Secret> token = secrets.resolve(t, "basic_auth_token");
    boolean lokiToken = token.isEmpty() && loki != null && loki.authToken().isPresent();
    if (token.isEmpty() && loki != null) {
      token = loki.authToken();
    }
    if (enabled && lokiToken && auth == ServiceConfig.TelemetryAuth.BASIC) {
      OtelEnvironment.crossHostWarning(endpoint, loki.url()).ifPresent(warnings::add); // OBS-30
    }
    if (enabled) {
      if (endpoint.isBlank()) {
        t.problem("endpoint", "required when telemetry is enabled");
      }
      if (auth == ServiceConfig.TelemetryAuth.BASIC) {
        if (user.isEmpty()) {
          t.problem(
              "basic_auth_user",
              "required for auth=basic (set basic_auth_user or sink.loki.tenant_id)");
        }
        if (token.isEmpty()) {
          t.problem(
              "basic_auth_token",
              "required for auth=basic (set basic_auth_token, basic_auth_token_file or"
                  + " sink.loki.auth_token)");
        }
      }
    }
    Section p = t.section("prometheus", PROMETHEUS_KEYS);
    Telemetry telemetry =
        new Telemetry(
            enabled,
            endpoint,
            auth,
            user,
            token,
            Collections.unmodifiableMap(t.stringMap("headers")),
            t.positiveDuration("export_interval", Duration.ofSeconds(60)),
            Collections.unmodifiableMap(t.stringMap("resource_attributes")),
            new ServiceConfig.Prometheus(p.bool("enabled", false)));
    return new ServiceConfig(
        s.enumValue(
            "log_level", ServiceConfig.LogLevel.values(), ServiceConfig.LogLevel.INFO, true),
        s.enumValue(
            "log_format", ServiceConfig.LogFormat.values(), ServiceConfig.LogFormat.JSON, false),
        healthAddr,
        s.duration("shutdown_grace", Duration.ofSeconds(25)),
        s.duration("unready_after_sink_failing", Duration.ofMinutes(15)),
        telemetry);
  }

  private static void checkHostPort(Section s, String key, String value) {
    int colon = value.lastIndexOf(':');
    boolean ok = colon >= 0;
    if (ok) {
      String port = value.substring(colon + 1);
      ok = port.matches("\\d{1,5}") && Integer.parseInt(port) <= 65535;
    }
    if (!ok) {
      s.problem(key, "must be host:port (e.g. :8080 or 127.0.0.1:8080), got '" + value + "'");
    }
  }

  // ---- small checks ----

  private String requiredIdentifier(Section s, String key) {
    String v = s.string(key, null);
    if (v == null || v.isEmpty()) {
      s.problem(key, "required");
      return "";
    }
    if (!SOQL_IDENTIFIER.matcher(v).matches()) {
      s.problem(key, "must match " + SOQL_IDENTIFIER.pattern() + " (got '" + v + "')");
    }
    return v;
  }

  private String identifier(Section s, String key, String dflt) {
    String v = s.string(key, dflt);
    if (!SOQL_IDENTIFIER.matcher(v).matches()) {
      s.problem(key, "must match " + SOQL_IDENTIFIER.pattern() + " (got '" + v + "')");
    }
    return v;
  }

  private void checkRate(String path, double rate) {
    if (!(rate > 0 && rate <= 1)) {
      problems.add(path, "sampling rate must be greater than 0 and at most 1 (got " + rate + ")");
    }
  }

  private static void nonNegative(Section s, String key, long v) {
    if (v < 0) {
      s.problem(key, "must be at least 0");
    }
  }
}
