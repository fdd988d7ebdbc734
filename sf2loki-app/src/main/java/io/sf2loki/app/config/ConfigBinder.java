package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.auth.AuthMode;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.pubsub.PubSubChannels;
import io.sf2loki.salesforce.pubsub.PubSubReaderSettings;
import io.sf2loki.salesforce.pubsub.PubSubSourceSettings;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import java.time.Duration;
import java.util.ArrayList;
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
  private final TransformBinding transforms = new TransformBinding(problems);
  private final List<ConfigException.Problem> labelCountProblems = new ArrayList<>();
  private LokiConfig loki;
  private boolean multiOrg;
  private List<String> globalMetadata = List.of();

  ConfigBinder(SecretResolver secrets) {
    this.secrets = secrets;
  }

  Sf2lokiConfig bind(JsonNode tree) {
    Section root = new Section(tree, "", problems, ROOT_KEYS);

    // sink first: per-org label checks need sink.loki.labels
    loki = sink(root);
    globalMetadata = loki == null ? List.of() : loki.structuredMetadataFields();

    boolean hasSalesforce = root.has("salesforce");
    List<JsonNode> orgItems = root.list("orgs");
    multiOrg = !orgItems.isEmpty();
    List<OrgConfig> orgs = new ArrayList<>();
    if (hasSalesforce && multiOrg) {
      root.problem("orgs", "set either salesforce (single org) or orgs (multi-org), not both");
    } else if (!hasSalesforce && !multiOrg) {
      root.problem("salesforce", "required (or configure a non-empty orgs list)");
    }
    if (multiOrg) {
      if (root.has("sources")) {
        SourcesConfig top = sources(root.section("sources", SOURCES_KEYS), false, "", null);
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
        SourcesConfig src =
            sources(o.section("sources", SOURCES_KEYS), true, prefix, "orgs." + i + ".sources");
        orgs.add(new OrgConfig(name, sf, src));
      }
    } else if (hasSalesforce) {
      SalesforceConfig sf = salesforce(root.section("salesforce", SALESFORCE_KEYS), "");
      SourcesConfig src = sources(root.section("sources", SOURCES_KEYS), true, "", "sources");
      orgs.add(new OrgConfig("", sf, src));
    }

    if (loki != null) {
      LokiBinding.checkStaticLabels(problems, loki, multiOrg, "sink.loki.labels");
      labelCountProblems.forEach(p -> problems.add(p.path(), p.message())); // CFG-16
      for (int i = 0; loki.push() != null && i < orgs.size(); i++) {
        String base = multiOrg ? "orgs." + i + ".sources" : "sources";
        Duration window = loki.push().outOfOrderWindow();
        RevisitWindowCheck.check(orgs.get(i).sources(), window, base, warnings);
      }
    }

    StateConfig state = StateBinding.bind(root.section("state", StateBinding.KEYS));
    CoordinateConfig coordinate =
        ServiceBinding.coordinate(root.section("coordinate", COORDINATE_KEYS));
    ServiceConfig service =
        ServiceBinding.service(secrets, root.section("service", SERVICE_KEYS), loki, warnings);

    if (!problems.isEmpty()) {
      throw new ConfigException(problems.list());
    }
    PipelineSettings pipeline =
        batch.withTiming(service.shutdownGrace(), state.minWriteInterval()); // PIPE-9, PIPE-13
    return new Sf2lokiConfig(orgs, multiOrg, loki, pipeline, state, coordinate, service, warnings);
  }

  private PipelineSettings batch;

  /** {@code sink.loki}, or null when it is missing (reported). */
  private LokiConfig sink(Section root) {
    if (!root.has("sink")) {
      root.problem("sink", "required (set sink.loki.url)");
      return null;
    }
    Section sink = root.section("sink", SINK_KEYS);
    if (!sink.has("loki")) {
      sink.problem("loki", "required (set sink.loki.url)");
      return null;
    }
    LokiBinding binding = new LokiBinding(secrets, problems, warnings);
    LokiConfig bound = binding.bind(sink.section("loki", LOKI_KEYS));
    batch = binding.batch();
    return bound;
  }

  private SourcesConfig defaultSources() {
    Section.Problems scratch = new Section.Problems();
    ConfigBinder b = new ConfigBinder(secrets);
    b.globalMetadata = globalMetadata;
    return b.sources(
        new Section(JsonNodeFactory.instance.objectNode(), "", scratch, SOURCES_KEYS),
        false,
        "",
        null);
  }

  // ---- salesforce ----

  private SalesforceConfig salesforce(Section s, String orgPrefix) {
    String env = s.choiceText(SalesforceKeys.ENVIRONMENT);
    AuthMode mode = s.choice(SalesforceKeys.AUTH_MODE, AuthMode.class);
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
      loginUrl = env.equals("sandbox") ? SANDBOX_LOGIN : PRODUCTION_LOGIN;
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
    String audience = s.string(SalesforceKeys.JWT_AUDIENCE);
    String login = loginUrl;
    String id = clientId;
    SalesforceAuthSettings auth =
        s.build(
            () ->
                new SalesforceAuthSettings(
                    java.net.URI.create(login),
                    env,
                    mode,
                    id,
                    clientSecret.map(Secret::reveal).orElse(null),
                    username,
                    privateKey.map(Secret::reveal).orElse(null),
                    audience,
                    tokenTtl));
    return new SalesforceConfig(auth, apiVersion, orgId, limits);
  }

  private static boolean isGenericLoginHost(String url) {
    String u = url.strip();
    while (u.endsWith("/")) {
      u = u.substring(0, u.length() - 1);
    }
    return u.equalsIgnoreCase(PRODUCTION_LOGIN) || u.equalsIgnoreCase(SANDBOX_LOGIN);
  }

  // ---- sources ----

  /**
   * @param labelBase dotted path of this org's sources for the CFG-16 label count, or null for a
   *     section that is not an org's (the multi-org top level, the defaults)
   */
  private SourcesConfig sources(
      Section s, boolean emitWarnings, String orgPrefix, String labelBase) {
    Optional<Secret> salt = secrets.resolve(s, "transform_salt");
    PubSubConfig pubsub = pubsub(s.section("pubsub", PUBSUB_KEYS), emitWarnings, orgPrefix);
    SourceConfig<EventLogObjectsSettings> elo =
        eventlogObjects(s.section("eventlog_objects", ELO_KEYS));
    SourceConfig<EventLogFileSettings> elf =
        eventlogfile(s.section("eventlogfile", ELF_KEYS), labelBase);
    SourceConfig<ApexLogSettings> apex = apexlog(s.section("apexlog", APEX_KEYS));
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
    boolean enabled = s.bool(SourceKeys.PS_ENABLED);
    ReplayPreset preset = s.choice(SourceKeys.PS_REPLAY_PRESET, ReplayPreset.class);
    ReplayPreset onInvalid = s.choice(SourceKeys.PS_ON_INVALID_REPLAY, ReplayPreset.class);
    TopicFilter filter =
        new TopicFilter(s.stringList(SourceKeys.PS_INCLUDE), s.stringList(SourceKeys.PS_EXCLUDE));
    Duration rediscovery = s.duration(SourceKeys.PS_REDISCOVERY);
    List<TransformRule> rules = transforms.bind(s, "transforms", Set.of());
    PubSubSourceSettings source =
        s.build(() -> PubSubSourceSettings.of(topics, filter, rediscovery, bridgeMax));
    PubSubReaderSettings reader =
        s.build(
            () ->
                PubSubReaderSettings.defaults(globalMetadata)
                    .withNumRequested(numRequested)
                    .withPresets(preset, onInvalid)
                    .withSampleRates(new SampleRates(sample)));
    return new PubSubConfig(
        enabled, PubSubChannels.Settings.of(endpoint, tls), source, reader, rules);
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

  private SourceConfig<EventLogObjectsSettings> eventlogObjects(Section s) {
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

  private SourceConfig<EventLogFileSettings> eventlogfile(Section s, String labelBase) {
    boolean enabled = s.bool(SourceKeys.ELF_ENABLED);
    EventLogFileSettings.Interval interval =
        s.choice(SourceKeys.ELF_INTERVAL, EventLogFileSettings.Interval.class);
    List<EventLogFileSettings.EventTypeSettings> types = new ArrayList<>();
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
      List<String> smf =
          t.has("structured_metadata_fields")
              ? t.stringList("structured_metadata_fields", List.of())
              : null;
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
      String typeName = name;
      types.add(
          t.build(() -> new EventLogFileSettings.EventTypeSettings(typeName, smf, labels, sample)));
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

  private SourceConfig<ApexLogSettings> apexlog(Section s) {
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
    if (loki == null) {
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
    all.addAll(loki.labels().keySet());
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

  // ---- state, coordinate, service ----

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
