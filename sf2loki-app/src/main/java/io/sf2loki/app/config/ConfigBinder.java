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
import io.sf2loki.core.settings.Setting;
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

  // CFG-4: the keys each object accepts come from the one model (ConfigModel)
  static final Set<String> ROOT_KEYS = ConfigModel.keys("");
  static final Set<String> SALESFORCE_KEYS = ConfigModel.keys("salesforce");
  static final Set<String> LIMITS_KEYS = ConfigModel.keys("salesforce.limits");
  static final Set<String> ORG_KEYS = ConfigModel.keys("orgs");
  static final Set<String> SOURCES_KEYS = ConfigModel.keys("sources");
  static final Set<String> PUBSUB_KEYS = ConfigModel.keys("sources.pubsub");
  static final Set<String> ELO_KEYS = ConfigModel.keys("sources.eventlog_objects");
  static final Set<String> OBJECT_KEYS = ConfigModel.keys("sources.eventlog_objects.objects");
  static final Set<String> ELF_KEYS = ConfigModel.keys("sources.eventlogfile");
  static final Set<String> EVENT_TYPE_KEYS = ConfigModel.keys("sources.eventlogfile.event_types");
  static final Set<String> APEX_KEYS = ConfigModel.keys("sources.apexlog");
  static final Set<String> TRANSFORM_KEYS = ConfigModel.keys("sources.pubsub.transforms");
  static final Set<String> SINK_KEYS = ConfigModel.keys("sink");
  static final Set<String> LOKI_KEYS = ConfigModel.keys("sink.loki");
  static final Set<String> BATCH_KEYS = ConfigModel.keys("sink.loki.batch");
  static final Set<String> EGRESS_KEYS = ConfigModel.keys("sink.loki.egress");
  static final Set<String> COORDINATE_KEYS = ConfigModel.keys("coordinate");
  static final Set<String> FILE_LEASE_KEYS = ConfigModel.keys("coordinate.file_lease");
  static final Set<String> K8S_LEASE_KEYS = ConfigModel.keys("coordinate.k8s_lease");
  static final Set<String> SERVICE_KEYS = ConfigModel.keys("service");
  static final Set<String> TELEMETRY_KEYS = ConfigModel.keys("service.telemetry");
  static final Set<String> PROMETHEUS_KEYS = ConfigModel.keys("service.telemetry.prometheus");

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
    Environment env = s.enumValue(SalesforceKeys.ENVIRONMENT, Environment.values(), false);
    AuthMode mode = s.enumValue(SalesforceKeys.AUTH_MODE, AuthMode.values(), false);
    String clientId = s.string("client_id", null);
    if (clientId == null || clientId.isEmpty()) {
      s.problem("client_id", orgPrefix + "required");
      clientId = "";
    }
    Optional<Secret> clientSecret = secrets.resolve(s, "client_secret");
    Optional<Secret> privateKey = secrets.resolve(s, "private_key");
    String username = s.string(SalesforceKeys.USERNAME);
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
    String apiVersion = s.string(SalesforceKeys.API_VERSION);
    if (!API_VERSION.matcher(apiVersion).matches()) {
      s.problem("api_version", "must look like 60.0 (got '" + apiVersion + "')");
    }
    Optional<String> orgId = s.optString("org_id").filter(v -> !v.isEmpty());
    if (orgId.isPresent() && !ORG_ID.matcher(orgId.get()).matches()) {
      s.problem("org_id", "must be a 15- or 18-character alphanumeric org id");
    }
    String loginUrl = s.string(SalesforceKeys.LOGIN_URL);
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
    Duration tokenTtl = s.duration(SalesforceKeys.TOKEN_TTL);
    if (tokenTtl.compareTo(Duration.ofMinutes(5)) < 0) {
      s.problem("token_ttl", "must be at least 5m");
    }
    Section l = s.section("limits", LIMITS_KEYS);
    SalesforceConfig.Limits limits =
        new SalesforceConfig.Limits(
            l.bool(SalesforceKeys.LIMITS_ENABLED),
            l.duration(SalesforceKeys.LIMITS_POLL_INTERVAL),
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
        s.string(SalesforceKeys.JWT_AUDIENCE),
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
    return new SourcesConfig(s.bool(SourceKeys.ALLOW_OVERLAP), salt, pubsub, elo, elf, apex);
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
    String endpoint = s.string(SourceKeys.PS_ENDPOINT);
    boolean tls = s.bool(SourceKeys.PS_TLS);
    if (emitWarnings && !tls && !isLoopbackTarget(endpoint)) {
      warnings.add(
          orgPrefix
              + "sources.pubsub.tls is false for non-loopback endpoint "
              + endpoint
              + "; Pub/Sub traffic is sent in plaintext");
    }
    int numRequested = s.intValue(SourceKeys.PS_NUM_REQUESTED);
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
    long bridgeMax = s.integer(SourceKeys.PS_BRIDGE_MAX_BYTES);
    List<String> topics = s.stringList(SourceKeys.PS_TOPICS);
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
        s.bool(SourceKeys.PS_ENABLED),
        endpoint,
        tls,
        numRequested,
        s.enumValue(SourceKeys.PS_REPLAY_PRESET, PubSubConfig.ReplayPreset.values(), false),
        s.enumValue(
            SourceKeys.PS_ON_INVALID_REPLAY, PubSubConfig.InvalidReplayPreset.values(), false),
        topics,
        s.stringList(SourceKeys.PS_INCLUDE),
        s.stringList(SourceKeys.PS_EXCLUDE),
        s.duration(SourceKeys.PS_REDISCOVERY),
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
      String tsField = identifier(o, SourceKeys.OBJ_TIMESTAMP_FIELD);
      double sample = o.number(SourceKeys.SAMPLE);
      checkRate(o.path("sample"), sample);
      long maxRecords = o.integer(SourceKeys.OBJ_MAX_CATCHUP_RECORDS);
      long maxBytes = o.integer(SourceKeys.OBJ_MAX_CATCHUP_BYTES);
      objects.add(
          new ObjectConfig(
              name,
              tsField,
              o.duration(SourceKeys.OBJ_POLL_INTERVAL),
              o.duration(SourceKeys.OBJ_LOOKBACK),
              o.duration(SourceKeys.OBJ_SETTLE_WINDOW),
              sample,
              o.bool(SourceKeys.OBJ_BIG_OBJECT),
              maxRecords,
              maxBytes,
              identifier(o, SourceKeys.OBJ_TIEBREAK_FIELD),
              revisit(o)));
    }
    return new EventLogObjectsConfig(
        s.bool(SourceKeys.ELO_ENABLED),
        List.copyOf(objects),
        transforms(s, "transforms", Set.of()));
  }

  private EventLogFileConfig eventlogfile(Section s) {
    boolean enabled = s.bool(SourceKeys.ELF_ENABLED);
    EventLogFileConfig.Interval interval =
        s.enumValue(SourceKeys.ELF_INTERVAL, EventLogFileConfig.Interval.values(), false);
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
      List<String> labels = t.stringList(SourceKeys.ET_LABELS);
      for (String label : labels) {
        if (!LABEL_NAME.matcher(label).matches()) {
          t.problem("labels", "'" + label + "' must match " + LABEL_NAME.pattern());
        } else if (RESERVED_ELF_LABELS.contains(label)) {
          t.problem("labels", "'" + label + "' is reserved and cannot be a promoted column label");
        }
      }
      promoted.addAll(labels);
      double sample = t.number(SourceKeys.ET_SAMPLE);
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
    int pageSize = s.intValue(SourceKeys.ELF_PAGE_SIZE);
    int concurrency = s.intValue(SourceKeys.ELF_CONCURRENCY);
    Duration settleDefault =
        interval == EventLogFileConfig.Interval.HOURLY ? Duration.ofMinutes(5) : Duration.ZERO;
    return new EventLogFileConfig(
        enabled,
        interval,
        List.copyOf(types),
        s.stringList(SourceKeys.ELF_EXCLUDE),
        s.duration(SourceKeys.ELF_POLL_INTERVAL),
        s.duration(SourceKeys.ELF_LOOKBACK),
        s.string(SourceKeys.ELF_TIMESTAMP_COLUMN),
        pageSize,
        s.duration(SourceKeys.ELF_SETTLE_WINDOW.key(), settleDefault), // CFG-18
        s.duration(SourceKeys.ELF_DOWNLOAD_MAX_AGE),
        transforms(s, "transforms", promoted),
        concurrency);
  }

  private ApexLogConfig apexlog(Section s) {
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
    return new ApexLogConfig(
        s.bool(SourceKeys.APX_ENABLED),
        s.duration(SourceKeys.APX_POLL_INTERVAL),
        s.duration(SourceKeys.APX_LOOKBACK),
        users,
        maxBody,
        sample,
        transforms(s, "transforms", Set.of()),
        revisit(s));
  }

  /** OBJ-13…OBJ-17, APX-10: the three revisit keys of an object or of {@code apexlog}. */
  private static RevisitConfig revisit(Section s) {
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
    return new RevisitConfig(
        s.duration(SourceKeys.REVISIT_WINDOW), s.duration(SourceKeys.REVISIT_INTERVAL), maxKeys);
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
      List<String> fields = r.stringList(SourceKeys.XF_FIELDS);
      Map<String, String> match = r.stringMap("match");
      Optional<String> pattern = r.optString("pattern");
      String replacement = r.string(SourceKeys.XF_REPLACEMENT);
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
              r.string(SourceKeys.XF_NAME)));
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
        s.enumValue(SinkKeys.ENCODING, LokiConfig.Encoding.values(), false);
    boolean compressionExplicit = s.has("compression");
    LokiConfig.Compression compression =
        s.enumValue(SinkKeys.COMPRESSION, LokiConfig.Compression.values(), false);
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
    Duration outOfOrderWindow = s.duration(SinkKeys.OUT_OF_ORDER_WINDOW);
    if (outOfOrderWindow.isNegative()) {
      s.problem("out_of_order_window", "must not be negative");
    }
    int maxTrackedStreams = s.intValue(SinkKeys.MAX_TRACKED_STREAMS);
    Section b = s.section("batch", BATCH_KEYS);
    int maxEntries = b.intValue(SinkKeys.MAX_ENTRIES);
    long maxBytes = b.integer(SinkKeys.MAX_BYTES);
    int queueMax = b.intValue(SinkKeys.QUEUE_MAXSIZE);
    long queueMaxBytes = b.integer(SinkKeys.QUEUE_MAX_BYTES);
    Batch batch =
        new Batch(
            maxEntries,
            maxBytes,
            b.duration(SinkKeys.FLUSH_INTERVAL),
            b.integer(SinkKeys.MAX_LINE_BYTES),
            queueMax,
            queueMaxBytes);
    Section e = s.section("egress", EGRESS_KEYS);
    double lines = e.number(SinkKeys.MAX_LINES_PER_SECOND);
    e.checkBounds(SinkKeys.MAX_LINES_PER_SECOND, lines);
    double bytes = e.number(SinkKeys.MAX_BYTES_PER_SECOND);
    e.checkBounds(SinkKeys.MAX_BYTES_PER_SECOND, bytes);
    long budget = e.integer(SinkKeys.DAILY_BYTE_BUDGET);
    Egress egress =
        new Egress(
            lines,
            bytes,
            budget,
            e.enumValue(SinkKeys.BUDGET_ACTION, LokiConfig.BudgetAction.values(), false));
    return new LokiConfig(
        url,
        s.optString("tenant_id").filter(t -> !t.isEmpty()),
        secrets.resolve(s, "auth_token"),
        encoding,
        compression,
        compressionExplicit,
        Collections.unmodifiableMap(s.stringMap("labels")),
        s.stringList(SinkKeys.STRUCTURED_METADATA_FIELDS),
        s.enumValue(
            SinkKeys.STRUCTURED_METADATA, LokiConfig.StructuredMetadataMode.values(), false),
        s.enumValue(SinkKeys.LATE_ENTRIES, LokiConfig.LateEntries.values(), false),
        outOfOrderWindow,
        maxTrackedStreams,
        batch,
        egress);
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
    CoordinateConfig.Type type = s.enumValue(StateKeys.TYPE, CoordinateConfig.Type.values(), false);
    Section f = s.section("file_lease", FILE_LEASE_KEYS);
    FileLease fl =
        new FileLease(
            Path.of(f.string(StateKeys.FL_PATH)),
            f.duration(StateKeys.TTL),
            f.duration(StateKeys.RENEW_INTERVAL),
            f.string(StateKeys.HOLDER_ID));
    if (fl.renewInterval().multipliedBy(2).compareTo(fl.ttl()) >= 0) {
      f.problem("renew_interval", "2 × renew_interval must be less than ttl");
    }
    Section k = s.section("k8s_lease", K8S_LEASE_KEYS);
    K8sLease kl =
        new K8sLease(
            k.string(StateKeys.K8S_NAMESPACE),
            k.string(StateKeys.K8S_NAME),
            k.string(StateKeys.K8S_IDENTITY),
            k.duration(StateKeys.K8S_LEASE_DURATION),
            k.duration(StateKeys.RENEW_INTERVAL),
            k.optString("kubeconfig").filter(v -> !v.isEmpty()).map(Path::of));
    if (kl.renewInterval().multipliedBy(2).compareTo(kl.leaseDuration()) >= 0) {
      k.problem("renew_interval", "2 × renew_interval must be less than lease_duration");
    }
    return new CoordinateConfig(
        type, fl, kl, ObjectLeaseBinding.s3(s, type), ObjectLeaseBinding.gcs(s, type));
  }

  private ServiceConfig service(Section s, LokiConfig loki) {
    String healthAddr = s.string(ServiceKeys.HEALTH_ADDR);
    checkHostPort(s, "health_addr", healthAddr);
    Section t = s.section("telemetry", TELEMETRY_KEYS);
    boolean enabled = t.bool(ServiceKeys.T_ENABLED);
    String endpoint = t.string(ServiceKeys.T_ENDPOINT);
    ServiceConfig.TelemetryAuth auth =
        t.enumValue(ServiceKeys.T_AUTH, ServiceConfig.TelemetryAuth.values(), false);
    String user = t.string(ServiceKeys.T_USER);
    if (user.isEmpty() && loki != null) {
      user = loki.tenantId().orElse("");
    }
    Optional<Secret> token = secrets.resolve(t, "basic_auth_token");
    if (token.isEmpty() && loki != null) {
      token = loki.authToken();
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
            t.duration(ServiceKeys.T_EXPORT_INTERVAL),
            Collections.unmodifiableMap(t.stringMap("resource_attributes")),
            new ServiceConfig.Prometheus(p.bool(ServiceKeys.PROMETHEUS_ENABLED)));
    return new ServiceConfig(
        s.enumValue(ServiceKeys.LOG_LEVEL, ServiceConfig.LogLevel.values(), true),
        s.enumValue(ServiceKeys.LOG_FORMAT, ServiceConfig.LogFormat.values(), false),
        healthAddr,
        s.duration(ServiceKeys.SHUTDOWN_GRACE),
        s.duration(ServiceKeys.UNREADY_AFTER_SINK_FAILING),
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

  private String identifier(Section s, Setting d) {
    String key = d.key();
    String v = s.string(d);
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
}
