package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.auth.AuthMode;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.pubsub.PubSubChannels;
import io.sf2loki.salesforce.pubsub.PubSubReaderSettings;
import io.sf2loki.salesforce.pubsub.PubSubSourceSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Binds a merged, interpolated configuration tree to {@link Sf2lokiConfig} and applies the
 * structural and cross-field rules of SPEC §1.1–1.2 (CFG-4…CFG-24), collecting every problem.
 */
final class ConfigBinder {
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
  static final Set<String> ORG_LOKI_KEYS = ConfigModel.keys("orgs.loki");
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
        String name = o.requiredString("name");
        if (name == null) {
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
        orgs.add(new OrgConfig(name, sf, src, orgLoki(o)));
      }
      warnSameOrgId(orgs);
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
    Section coordinateSection = root.section("coordinate", COORDINATE_KEYS);
    CoordinateConfig coordinate = ServiceBinding.coordinate(coordinateSection);
    ServiceBinding.checkSharding(coordinateSection, coordinate, multiOrg, orgs); // CFG-43, CFG-44
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

  /** {@code orgs[].loki} (FEAT-6, CFG-42): absent or empty keys inherit {@code sink.loki}'s. */
  private OrgConfig.LokiIdentity orgLoki(Section org) {
    if (!org.has("loki")) {
      return OrgConfig.LokiIdentity.INHERIT;
    }
    Section s = org.section("loki", ORG_LOKI_KEYS);
    Optional<String> tenant = s.optString(SinkKeys.TENANT_ID.key()).filter(t -> !t.isEmpty());
    Optional<Secret> token = secrets.resolve(s, SinkKeys.AUTH_TOKEN.key());
    return new OrgConfig.LokiIdentity(tenant, token);
  }

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
    if (clientId == null || clientId.isBlank()) {
      s.problem(
          "client_id",
          orgPrefix + (clientId == null || clientId.isEmpty() ? "required" : "must not be blank"));
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
    Duration tokenTtl = s.duration(SalesforceKeys.TOKEN_TTL); // ≥ 5m: its definition's bound
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
    SourceBinding polling = polling();
    SourceConfig<EventLogObjectsSettings> elo =
        polling.eventlogObjects(s.section("eventlog_objects", ELO_KEYS));
    SourceConfig<EventLogFileSettings> elf =
        polling.eventlogfile(s.section("eventlogfile", ELF_KEYS), labelBase);
    SourceConfig<ApexLogSettings> apex = polling.apexlog(s.section("apexlog", APEX_KEYS));
    if (emitWarnings && salt.isEmpty()) {
      warnHashWithoutSalt(orgPrefix, "pubsub", pubsub.transforms());
      warnHashWithoutSalt(orgPrefix, "eventlog_objects", elo.transforms());
      warnHashWithoutSalt(orgPrefix, "eventlogfile", elf.transforms());
      warnHashWithoutSalt(orgPrefix, "apexlog", apex.transforms());
    }
    return new SourcesConfig(s.bool(SourceKeys.ALLOW_OVERLAP), salt, pubsub, elo, elf, apex);
  }

  private SourceBinding polling() {
    return new SourceBinding(
        problems,
        warnings,
        transforms,
        globalMetadata,
        loki == null ? null : loki.labels().keySet(),
        multiOrg,
        labelCountProblems);
  }

  /**
   * ORG-19: two {@code orgs} entries with the same configured org id (its 15-character form) ship
   * the same events twice under different {@code org} labels — a warning, not an error (two
   * integration users may split one org's sources on purpose).
   */
  private void warnSameOrgId(List<OrgConfig> orgs) {
    Map<String, Integer> first = new HashMap<>();
    for (int i = 0; i < orgs.size(); i++) {
      SalesforceConfig sf = orgs.get(i).salesforce();
      if (sf == null || sf.orgId().isEmpty() || sf.orgId().get().length() < 15) {
        continue;
      }
      Integer j = first.putIfAbsent(sf.orgId().get().substring(0, 15), i);
      if (j != null) {
        warnings.add(
            "orgs."
                + i
                + ".salesforce.org_id: the same org id "
                + sf.orgId().get()
                + " as orgs."
                + j
                + " ('"
                + orgs.get(j).name()
                + "'); sources both enable are shipped twice under different org labels"
                + " (ORG-19)");
      }
    }
  }

  private void warnHashWithoutSalt(String orgPrefix, String source, List<TransformRule> rules) {
    for (int i = 0; i < rules.size(); i++) {
      if (rules.get(i).action() == io.sf2loki.core.transform.TransformAction.HASH) {
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
          polling().checkRate(p, rate);
          sample.put(e.getKey(), rate);
        }
      }
    }
    long bridgeMax = s.integer(SourceKeys.PS_BRIDGE_MAX_BYTES);
    List<String> topics = s.stringList(SourceKeys.PS_TOPICS);
    for (int i = 0; i < topics.size(); i++) {
      String t = topics.get(i);
      String seg = t.endsWith("/") ? t.substring(0, t.length() - 1) : t;
      if (seg.substring(seg.lastIndexOf('/') + 1).isBlank()) { // PS-10: the event_type label
        problems.add(
            s.path(SourceKeys.PS_TOPICS.key()) + "." + i,
            "a topic needs a name (e.g. /event/LoginEventStream), got '" + t + "'");
      }
    }
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
}
