package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static io.sf2loki.app.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.sf2loki.app.telemetry.TelemetrySettings;
import io.sf2loki.core.egress.BudgetAction;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.loki.Compression;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.loki.MetadataMode;
import io.sf2loki.salesforce.auth.AuthMode;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  private static Path resource(String name) {
    try {
      return Path.of(ConfigLoaderTest.class.getResource("/config/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  @DisplayName("CFG-1/CFG-12: a full 1.x-style configuration loads with values and defaults")
  void full1xConfigLoads() {
    Sf2lokiConfig cfg =
        new ConfigLoader()
            .load(resource("full-1x.yaml"), Map.of("SF_PRIVATE_KEY", "PEM", "LOKI_TOKEN", "tok"));
    assertThat(cfg.multiOrg()).isFalse();
    assertThat(cfg.orgs()).hasSize(1);
    OrgConfig org = cfg.orgs().get(0);
    assertThat(org.name()).isEmpty();
    assertThat(org.keyPrefix()).isEmpty();
    SalesforceConfig sf = org.salesforce();
    assertThat(sf.environment()).isEqualTo("sandbox");
    assertThat(sf.loginUrl()).isEqualTo("https://test.salesforce.com");
    assertThat(sf.authMode()).isEqualTo(AuthMode.JWT_BEARER);
    assertThat(sf.privateKey().orElseThrow().reveal()).isEqualTo("PEM");
    assertThat(sf.apiVersion()).isEqualTo("60.0");
    assertThat(sf.orgId()).contains("00D000000000001");
    assertThat(sf.tokenTtl()).isEqualTo(Duration.ofHours(2));
    assertThat(sf.limits().enabled()).isTrue();
    assertThat(sf.limits().pollInterval()).isEqualTo(Duration.ofMinutes(10));
    assertThat(sf.jwtAudience()).isEmpty();

    PubSubConfig ps = org.sources().pubsub();
    assertThat(ps.channel().tls()).isTrue();
    assertThat(ps.reader().numRequested()).isEqualTo(50);
    assertThat(ps.topics()).containsExactly("/event/LoginEventStream", "*");
    assertThat(ps.source().rediscoveryInterval()).isEqualTo(Duration.ofHours(1));
    assertThat(ps.sample())
        .containsExactly(Map.entry("/event/LoginEventStream", 0.5), Map.entry("*", 1.0));
    assertThat(ps.reader().sampleRates().applyAsDouble("/event/LoginEventStream")).isEqualTo(0.5);
    assertThat(ps.reader().onInvalidReplay()).isEqualTo(ReplayPreset.EARLIEST);
    assertThat(ps.source().bridgeMaxBytes()).isZero();

    SourceConfig<EventLogObjectsSettings> elo = org.sources().eventlogObjects();
    assertThat(elo.enabled()).isTrue();
    assertThat(elo.settings().objects().get(0).pollInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(elo.settings().objects().get(0).lookback()).isEqualTo(Duration.ofDays(1));
    assertThat(elo.settings().objects().get(0).maxCatchupRecords()).isEqualTo(200_000);
    ObjectSettings api = elo.settings().objects().get(1);
    assertThat(api)
        .isEqualTo(
            new ObjectSettings(
                "ApiEvent",
                "EventDate",
                Duration.ofMinutes(5),
                Duration.ofHours(1),
                Duration.ofMinutes(1),
                1.0,
                false,
                20_000,
                67_108_864,
                "EventIdentifier",
                RevisitSettings.DEFAULTS));
    assertThat(elo.transforms().get(0).match()).containsEntry("Status", "Fail*");

    SourceConfig<EventLogFileSettings> elfSource = org.sources().eventlogfile();
    EventLogFileSettings elf = elfSource.settings();
    assertThat(elf.interval()).isEqualTo(EventLogFileSettings.Interval.Daily);
    assertThat(elf.eventTypes().get(0))
        .isEqualTo(new EventLogFileSettings.EventTypeSettings("Login", null, List.of(), 1.0));
    assertThat(elf.eventTypes().get(1).structuredMetadataFields()).isEqualTo(List.of());
    assertThat(elf.eventTypes().get(1).labels()).containsExactly("API_TYPE");
    assertThat(elf.pollInterval()).isEqualTo(Duration.ofMinutes(30));
    assertThat(elf.settleWindow()).isEqualTo(Duration.ZERO); // CFG-18: Daily default
    assertThat(elfSource.transforms().get(0).metricName(0)).isEqualTo("strip-ids");
    assertThat(org.sources().apexlog().settings().pollInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(org.sources().apexlog().settings().maxBodyBytes()).isEqualTo(5_242_880);

    LokiConfig loki = cfg.loki();
    assertThat(loki.authToken().orElseThrow().reveal()).isEqualTo("tok");
    assertThat(loki.tenantId()).contains("tenant-1");
    assertThat(loki.effectiveCompression()).isEqualTo(Compression.SNAPPY);
    assertThat(loki.labels())
        .containsExactly(Map.entry("job", "sf2loki"), Map.entry("environment", "prod"));
    assertThat(cfg.pipeline().flushInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(loki.maxLineBytes()).isZero();
    assertThat(loki.egress().maxLinesPerSecond()).isEqualTo(100.5);
    assertThat(loki.egress().budgetAction()).isEqualTo(BudgetAction.DROP);
    assertThat(loki.push().structuredMetadata()).isEqualTo(MetadataMode.AUTO);
    assertThat(loki.push().lateEntries()).isEqualTo(LokiSinkSettings.LateEntries.RESTAMP);

    assertThat(cfg.state().file().path()).isEqualTo(Path.of("/tmp/sf2loki/state.json"));
    assertThat(cfg.state().minWriteInterval()).isZero();
    assertThat(cfg.coordinate().type()).isEqualTo(CoordinateConfig.Type.FILE_LEASE);
    assertThat(cfg.coordinate().k8sLease().name()).isEqualTo("sf2loki-leader");
    assertThat(cfg.service().logLevel()).isEqualTo(ServiceConfig.LogLevel.WARNING);
    assertThat(cfg.service().logFormat()).isEqualTo(ServiceConfig.LogFormat.LOGFMT);
    assertThat(cfg.service().unreadyAfterSinkFailing()).isZero();
    TelemetrySettings tel = cfg.service().telemetry();
    assertThat(tel.basicAuthUser()).isEqualTo("tenant-1"); // CFG-9 fallback
    assertThat(tel.basicAuthToken()).isEqualTo("tok");
    assertThat(tel.exportInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(tel.prometheusEnabled()).isFalse();
    // the 1.x sample sends the Loki token to its OTLP host: the one OBS-30 warning
    assertThat(cfg.warnings()).singleElement().asString().contains("OBS-30");
  }

  @Test
  @DisplayName("CFG-1: defaults apply to a minimal configuration")
  void minimalDefaults() {
    Sf2lokiConfig cfg = load(dir, MINIMAL);
    SalesforceConfig sf = cfg.orgs().get(0).salesforce();
    assertThat(sf.loginUrl()).isEqualTo("https://login.salesforce.com");
    assertThat(sf.tokenTtl()).isEqualTo(Duration.ofHours(1));
    PubSubConfig ps = cfg.orgs().get(0).sources().pubsub();
    assertThat(ps.enabled()).isTrue();
    assertThat(ps.include()).containsExactly("*");
    assertThat(ps.channel().endpoint()).isEqualTo("api.pubsub.salesforce.com:7443");
    assertThat(ps.reader().replayPreset()).isEqualTo(ReplayPreset.CUSTOM);
    assertThat(cfg.orgs().get(0).sources().eventlogfile().settings().settleWindow())
        .isEqualTo(Duration.ofMinutes(5)); // CFG-18 Hourly
    PipelineSettings b = cfg.pipeline();
    assertThat(List.of(b.maxEntries(), b.maxBytes(), b.flushInterval()))
        .containsExactly(1000, 1_048_576L, Duration.ofSeconds(1));
    assertThat(cfg.loki().maxLineBytes()).isEqualTo(262_144);
    assertThat(List.of(b.queueMaxSize(), b.queueMaxBytes())).containsExactly(10_000, 268_435_456L);
    assertThat(cfg.state().store()).isEqualTo(StateConfig.Store.FILE);
    assertThat(cfg.state().file().path()).isEqualTo(Path.of("/var/lib/sf2loki/state.json"));
    assertThat(cfg.state().s3().key()).isEqualTo("sf2loki/state.json");
    assertThat(cfg.coordinate().type()).isEqualTo(CoordinateConfig.Type.NOOP);
    assertThat(cfg.coordinate().fileLease().ttl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(cfg.service().healthAddr()).isEqualTo(":8080");
    assertThat(cfg.service().shutdownGrace()).isEqualTo(Duration.ofSeconds(25));
    assertThat(cfg.service().unreadyAfterSinkFailing()).isEqualTo(Duration.ofMinutes(15));
    assertThat(cfg.service().telemetry().otlpEnabled()).isFalse();
    assertThat(cfg.service().telemetry().auth()).isEqualTo(TelemetrySettings.Auth.BASIC);
  }

  @Test
  @DisplayName("CFG-18: an explicit settle_window wins; s3 state defaults min_write_interval to 1s")
  void explicitSettleWindowAndObjectStoreMinWrite() {
    String yaml =
        MINIMAL.replace("  pubsub:", "  eventlogfile: {settle_window: 0s}\n  pubsub:")
            + "state:\n  store: s3\n  s3: {bucket: b}\n";
    Sf2lokiConfig cfg = load(dir, yaml);
    assertThat(cfg.orgs().get(0).sources().eventlogfile().settings().settleWindow()).isZero();
    assertThat(cfg.state().minWriteInterval()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  @DisplayName("CFG-4: an unknown nested key is reported with its dotted path")
  void unknownNestedKey() {
    String yaml =
        MINIMAL.replace("  pubsub:", "  eventlogfile:\n    evnt_types: [Login]\n  pubsub:");
    assertThatThrownBy(() -> load(dir, yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "invalid configuration:\n  sources.eventlogfile.evnt_types: unknown configuration key"
                + " (check for typos; see the configuration reference for valid keys)");
  }

  @Test
  @DisplayName("CFG-4: the root rejects unknown keys and all problems are collected")
  void allProblemsCollected() {
    String yaml = MINIMAL + "bogus: 1\nservice:\n  log_level: loud\n  shutdown_grace: -5s\n";
    assertThatThrownBy(() -> load(dir, yaml))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e -> {
              ConfigException ce = (ConfigException) e;
              assertThat(ce.problems())
                  .extracting(ConfigException.Problem::path)
                  .containsExactlyInAnyOrder(
                      "bogus", "service.log_level", "service.shutdown_grace");
              assertThat(ce.getMessage()).startsWith("invalid configuration:\n  ");
            });
  }

  @Test
  @DisplayName(
      "CFG-4/CFG-8: list indices appear as numbers in the path (orgs.1.salesforce.client_id)")
  void listIndexPath() {
    String yaml =
        """
        orgs:
          - name: a
            salesforce: {client_id: x, username: u@x.com, private_key: K}
            sources: {pubsub: {topics: ["*"]}}
          - name: b
            salesforce: {username: u@x.com, private_key: K}
        sink:
          loki: {url: "http://loki/loki/api/v1/push"}
        """;
    assertThatThrownBy(() -> load(dir, yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("  orgs.1.salesforce.client_id: org 'b': required");
  }

  @Test
  @DisplayName("CFG-1: SF2LOKI_SINK__LOKI__URL overrides the file, case-insensitively")
  void envOverride() {
    Sf2lokiConfig cfg =
        load(
            dir,
            MINIMAL,
            Map.of(
                "SF2LOKI_SINK__LOKI__URL", "https://other/loki/api/v1/push",
                "sf2loki_sink__loki__batch__max_entries", "250",
                "SF2LOKI_UNRELATED", "ignored"));
    assertThat(cfg.loki().url()).isEqualTo("https://other/loki/api/v1/push");
    assertThat(cfg.pipeline().maxEntries()).isEqualTo(250);
  }

  @Test
  @DisplayName("CFG-1: list and map values come as JSON and are deep-merged, not interpolated")
  void envJsonListAndMap() {
    Sf2lokiConfig cfg =
        load(
            dir,
            MINIMAL,
            Map.of(
                "SF2LOKI_SOURCES__PUBSUB__TOPICS", "[\"/event/ApiEventStream\", \"${X}\"]",
                "SF2LOKI_SINK__LOKI__LABELS", "{\"job\": \"env-job\"}",
                "SF2LOKI_SOURCES__PUBSUB__TLS", "off"));
    PubSubConfig ps = cfg.orgs().get(0).sources().pubsub();
    assertThat(ps.topics()).containsExactly("/event/ApiEventStream", "${X}");
    assertThat(ps.channel().tls()).isFalse();
    assertThat(cfg.loki().labels()).containsExactly(Map.entry("job", "env-job"));
    assertThat(cfg.orgs().get(0).salesforce().clientId()).isEqualTo("cid"); // merged, not replaced
  }

  @Test
  @DisplayName("CFG-1: without a file only environment and defaults apply")
  void noFile() {
    Sf2lokiConfig cfg =
        new ConfigLoader()
            .load(
                null,
                Map.of(
                    "SF2LOKI_SALESFORCE__CLIENT_ID", "cid",
                    "SF2LOKI_SALESFORCE__USERNAME", "u@x.com",
                    "SF2LOKI_SALESFORCE__PRIVATE_KEY", "K",
                    "SF2LOKI_SINK__LOKI__URL", "http://loki/loki/api/v1/push"));
    assertThat(cfg.orgs().get(0).salesforce().clientId()).isEqualTo("cid");
  }

  @Test
  @DisplayName("CFG-3: ${VAR} is interpolated mid-string in values and list items, not keys")
  void interpolation() {
    String yaml =
        MINIMAL
                .replace("client_id: cid", "client_id: pre-${CID}-post")
                .replace("[/event/LoginEventStream]", "[\"/event/${TOPIC}\"]")
            + "service:\n  telemetry:\n    resource_attributes:\n      ${KEY}: v\n";
    Sf2lokiConfig cfg =
        load(dir, yaml, Map.of("CID", "abc", "TOPIC", "LoginEventStream", "KEY", "k"));
    assertThat(cfg.orgs().get(0).salesforce().clientId()).isEqualTo("pre-abc-post");
    assertThat(cfg.orgs().get(0).sources().pubsub().topics())
        .containsExactly("/event/LoginEventStream");
    assertThat(cfg.service().telemetry().resourceAttributes()).containsOnlyKeys("${KEY}");
  }

  @Test
  @DisplayName("CFG-3: $${ yields a literal ${ and an empty variable yields an empty string")
  void escapedInterpolation() {
    String yaml = MINIMAL.replace("client_id: cid", "client_id: \"a$${NOT_SET}b${EMPTY}c\"");
    Sf2lokiConfig cfg = load(dir, yaml, Map.of("EMPTY", ""));
    assertThat(cfg.orgs().get(0).salesforce().clientId()).isEqualTo("a${NOT_SET}bc");
  }

  @Test
  @DisplayName("CFG-3: an undefined variable fails loading")
  void undefinedVariable() {
    String yaml = MINIMAL.replace("client_id: cid", "client_id: ${MISSING_VAR}");
    assertThatThrownBy(() -> load(dir, yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage("config references undefined environment variable ${MISSING_VAR}");
  }

  @Test
  @DisplayName("CFG-2: an empty file is an empty mapping; a non-mapping root is an error")
  void emptyAndNonMappingRoot() {
    assertThatThrownBy(() -> new ConfigLoader().load(write(dir, ""), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("  sink: required");
    assertThatThrownBy(() -> new ConfigLoader().load(write(dir, "- a\n- b\n"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("must contain a mapping at the top level");
  }

  @Test
  @DisplayName("CFG-2: custom tags and object construction are rejected")
  void customTagRejected() {
    String yaml = MINIMAL + "state: !!python/object:os.system {}\n";
    assertThatThrownBy(() -> new ConfigLoader().load(write(dir, yaml), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("custom YAML tag");
  }

  @Test
  @DisplayName("CFG-2: booleans accept any case and yes/no/on/off")
  void booleans() {
    for (String v : List.of("True", "FALSE", "yes", "No", "ON", "off", "'yes'")) {
      String yaml = MINIMAL + "service:\n  telemetry:\n    prometheus:\n      enabled: " + v + "\n";
      boolean expected = List.of("True", "yes", "ON", "'yes'").contains(v);
      assertThat(load(dir, yaml).service().telemetry().prometheusEnabled())
          .as(v)
          .isEqualTo(expected);
    }
    assertThatThrownBy(() -> load(dir, MINIMAL + "service:\n  telemetry:\n    enabled: maybe\n"))
        .hasMessageContaining("service.telemetry.enabled: expected a boolean");
  }

  @Test
  @DisplayName("CFG-5: every duration form is accepted in YAML")
  void durationFormsInYaml() {
    Map<String, Duration> cases =
        Map.of(
            "500ms", Duration.ofMillis(500),
            "1h30m", Duration.ofMinutes(90),
            "1.5h", Duration.ofMinutes(90),
            "2w", Duration.ofDays(14),
            "PT5M", Duration.ofMinutes(5),
            "P1D", Duration.ofDays(1),
            "45", Duration.ofSeconds(45),
            "2.5", Duration.ofMillis(2500),
            "\"30\"", Duration.ofSeconds(30),
            "00:00:05.5", Duration.ofMillis(5500));
    cases.forEach(
        (text, expected) -> {
          String yaml = MINIMAL + "service:\n  shutdown_grace: " + text + "\n";
          assertThat(load(dir, yaml).service().shutdownGrace()).as(text).isEqualTo(expected);
        });
    for (String clock : List.of("01:30:00", "1d,02:00:00", "1D02:00:00")) {
      String yaml = MINIMAL + "service:\n  shutdown_grace: \"" + clock + "\"\n";
      assertThat(load(dir, yaml).service().shutdownGrace()).as(clock).isPositive();
    }
    String plainClock = MINIMAL + "service:\n  shutdown_grace: 01:30:00\n";
    assertThat(load(dir, plainClock).service().shutdownGrace()).isEqualTo(Duration.ofMinutes(90));
  }

  @Test
  @DisplayName(
      "SINK-3: sink.loki.request_timeout defaults to 30 s, binds a configured value and must be"
          + " at least 1 s (0s and 500ms refused with the dotted path)")
  void sink3_requestTimeout() {
    assertThat(load(dir, MINIMAL).loki().push().requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    String five = MINIMAL.replace("url: http", "request_timeout: 5s\n    url: http");
    assertThat(load(dir, five).loki().push().requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    String one = MINIMAL.replace("url: http", "request_timeout: 1s\n    url: http");
    assertThat(load(dir, one).loki().push().requestTimeout()).isEqualTo(Duration.ofSeconds(1));
    String zero = MINIMAL.replace("url: http", "request_timeout: 0s\n    url: http");
    assertThatThrownBy(() -> load(dir, zero))
        .hasMessageContaining("sink.loki.request_timeout: must be at least 1s (got 0s)");
    String half = MINIMAL.replace("url: http", "request_timeout: 500ms\n    url: http");
    assertThatThrownBy(() -> load(dir, half))
        .hasMessageContaining("sink.loki.request_timeout: must be at least 1s (got 500ms)");
  }

  @Test
  @DisplayName("CFG-6: negative durations are rejected everywhere; zero only where allowed")
  void negativeAndZeroDurations() {
    assertThatThrownBy(() -> load(dir, MINIMAL + "service:\n  shutdown_grace: -1\n"))
        .hasMessageContaining("service.shutdown_grace: must not be negative");
    assertThatThrownBy(() -> load(dir, MINIMAL + "service:\n  shutdown_grace: -PT5M\n"))
        .hasMessageContaining("service.shutdown_grace: must not be negative");
    assertThatThrownBy(
            () -> load(dir, MINIMAL + "service:\n  telemetry:\n    export_interval: 0s\n"))
        .hasMessageContaining("service.telemetry.export_interval: must be greater than zero");
    String zeroFlush = MINIMAL.replace("url: http", "batch: {flush_interval: 0}\n    url: http");
    assertThatThrownBy(() -> load(dir, zeroFlush))
        .hasMessageContaining("sink.loki.batch.flush_interval: must be greater than zero");
    assertThat(load(dir, MINIMAL + "service:\n  shutdown_grace: 0s\n").service().shutdownGrace())
        .isZero();
    assertThatThrownBy(() -> load(dir, MINIMAL + "service:\n  shutdown_grace: 5 minutes\n"))
        .hasMessageContaining("service.shutdown_grace: invalid duration");
  }

  @Test
  @DisplayName(
      "CFG-17: a repeated eventlogfile event type still loads (1.x compatibility) with one warning"
          + " naming the ignored entry")
  void duplicateEventTypeWarns() {
    Sf2lokiConfig cfg =
        load(
            dir,
            MINIMAL.replace(
                "sink:",
                "  eventlogfile:\n    enabled: true\n    event_types: [Login, login,"
                    + " {name: API}]\nsink:"));
    // CFG-17: the repeated name is dropped when binding (the source reads each type once)
    assertThat(cfg.orgs().getFirst().sources().eventlogfile().settings().eventTypes())
        .extracting(EventLogFileSettings.EventTypeSettings::name)
        .containsExactly("Login", "API");
    assertThat(cfg.warnings())
        .singleElement()
        .asString()
        .isEqualTo(
            "sources.eventlogfile.event_types.1: duplicate event type 'login' is ignored; the"
                + " settings of its first entry apply");
  }

  @Test
  @DisplayName(
      "CFG-17: a repeated event type (any case) is ignored; the first entry's settings apply")
  void cfg17_duplicateEventTypesIgnored() {
    Sf2lokiConfig cfg =
        load(
            dir,
            MINIMAL.replace(
                "sink:",
                "  eventlogfile:\n    enabled: true\n    event_types: [Login, {name: login,"
                    + " sample: 0.5}, API]\nsink:"));
    assertThat(cfg.orgs().getFirst().sources().eventlogfile().settings().eventTypes())
        .extracting(
            EventLogFileSettings.EventTypeSettings::name,
            EventLogFileSettings.EventTypeSettings::sample)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Login", 1.0),
            org.assertj.core.groups.Tuple.tuple("API", 1.0));
  }

  @Test
  @DisplayName("CFG-23: protobuf with explicit gzip and json with explicit snappy warn")
  void compressionWarnings() {
    Sf2lokiConfig a = load(dir, MINIMAL.replace("url: http", "compression: gzip\n    url: http"));
    assertThat(a.loki().effectiveCompression()).isEqualTo(Compression.SNAPPY);
    assertThat(a.warnings()).singleElement().asString().contains("compression=gzip is ignored");
    Sf2lokiConfig b =
        load(
            dir,
            MINIMAL.replace("url: http", "encoding: json\n    compression: snappy\n    url: http"));
    assertThat(b.loki().effectiveCompression()).isEqualTo(Compression.NONE);
    assertThat(b.warnings()).singleElement().asString().contains("uncompressed");
    Sf2lokiConfig c = load(dir, MINIMAL.replace("url: http", "encoding: json\n    url: http"));
    assertThat(c.warnings()).isEmpty();
    Sf2lokiConfig d =
        load(
            dir,
            MINIMAL.replace("url: http", "encoding: json\n    compression: gzip\n    url: http"));
    assertThat(d.loki().effectiveCompression()).isEqualTo(Compression.GZIP);
  }

  @Test
  @DisplayName("CFG-11: multi-org rejects a non-default top-level sources and duplicate names")
  void multiOrgStructure() {
    String yaml =
        """
        orgs:
          - name: a
            salesforce: {client_id: x, username: u@x.com, private_key: K}
          - name: a
            salesforce: {client_id: y, username: u@x.com, private_key: K}
        sources:
          pubsub: {topics: ["*"]}
        sink:
          loki: {url: "http://loki/loki/api/v1/push"}
        """;
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("  sources: must not be set when orgs is used")
        .hasMessageContaining("  orgs.1.name: duplicate org name 'a'");
  }

  @Test
  @DisplayName(
      "CFG-4, CFG-10: a list or a mapping as orgs.0.name is one problem (the wrong type), not"
          + " also 'required'; a number is an org name in text form (CFG-2)")
  void wrongTypedOrgNameIsOneProblem() {
    for (String bad : new String[] {"[a, b]", "{x: 1}"}) {
      String yaml =
          """
          orgs:
            - name: %s
              salesforce: {client_id: x, username: u@x.com, private_key: K}
              sources: {pubsub: {topics: ["*"]}}
          sink:
            loki: {url: "http://loki/loki/api/v1/push"}
          """
              .formatted(bad);
      assertThatThrownBy(() -> load(dir, yaml))
          .isInstanceOf(ConfigException.class)
          .satisfies(
              e ->
                  assertThat(((ConfigException) e).problems())
                      .as(bad)
                      .extracting(ConfigException.Problem::path)
                      .containsExactly("orgs.0.name"));
    }
    String yaml =
        """
        orgs:
          - name: 42
            salesforce: {client_id: x, username: u@x.com, private_key: K}
            sources: {pubsub: {topics: ["*"]}}
        sink:
          loki: {url: "http://loki/loki/api/v1/push"}
        """;
    assertThat(load(dir, yaml).orgs().getFirst().name()).isEqualTo("42");
  }

  @Test
  @DisplayName(
      "CFG-45, XF-7: a transform rule name used twice in one source's list is refused at the"
          + " dotted path of the second; an explicit name equal to another rule's default"
          + " metric name too; the same name in another source is fine")
  void cfg45_duplicateTransformRuleNames() {
    String yaml =
        MINIMAL.replace(
            "    topics: [/event/LoginEventStream]\n",
            """
                topics: [/event/LoginEventStream]
                transforms:
                  - {action: mask, fields: [A], name: hide}
                  - {action: hash, fields: [B]}
                  - {action: mask, fields: [C], name: hide}
                  - {action: mask, fields: [D], name: hash-1}
              apexlog:
                transforms:
                  - {action: mask, fields: [A], name: hide}
            """);
    assertThatThrownBy(() -> load(dir, yaml))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e -> {
              ConfigException ce = (ConfigException) e;
              assertThat(ce.problems())
                  .extracting(ConfigException.Problem::path)
                  .containsExactly(
                      "sources.pubsub.transforms.2.name", "sources.pubsub.transforms.3.name");
              assertThat(ce.getMessage())
                  .contains(
                      "sources.pubsub.transforms.2.name: duplicate rule name 'hide' (also"
                          + " sources.pubsub.transforms.0); rule names are unique within a"
                          + " source's transforms (they label sf2loki_rows_filtered, XF-7)")
                  .contains("duplicate rule name 'hash-1' (also sources.pubsub.transforms.1");
            });
  }

  @Test
  @DisplayName("CFG-11/CFG-12: a single-element orgs list is multi-org mode")
  void singleElementOrgsIsMultiOrg() {
    String yaml =
        """
        orgs:
          - name: prod-1
            salesforce: {client_id: x, username: u@x.com, private_key: K}
        sources: {}
        sink:
          loki: {url: "http://loki/loki/api/v1/push"}
        """;
    Sf2lokiConfig cfg = load(dir, yaml);
    assertThat(cfg.multiOrg()).isTrue();
    assertThat(cfg.orgs().get(0).keyPrefix()).isEqualTo("org=prod-1:");
    assertThat(cfg.org("prod-1")).isPresent();
  }

  @Test
  @DisplayName("CFG-11: neither salesforce nor orgs, or both, is an error")
  void exactlyOneOfSalesforceOrOrgs() {
    assertThatThrownBy(() -> load(dir, "sink:\n  loki: {url: 'http://l/loki/api/v1/push'}\n"))
        .hasMessageContaining("  salesforce: required");
    String both =
        MINIMAL
            + "orgs:\n  - name: a\n    salesforce: {client_id: x, username: u@x.com, private_key: K}\n";
    assertThatThrownBy(() -> load(dir, both)).hasMessageContaining("  orgs: set either salesforce");
  }

  @Test
  @DisplayName("CFG-2: anchors, aliases and << merge keys resolve as in 1.x; duplicate keys fail")
  void anchorsAndMergeKeys() {
    String yaml =
        """
        x-sf: &sf
          client_id: shared
          username: u@x.com
          private_key: K
        orgs:
          - name: a
            salesforce:
              <<: *sf
              client_id: a-id
            sources: &src
              pubsub: {topics: ["*"]}
          - name: b
            salesforce: *sf
            sources: *src
        sink:
          loki: {url: "http://loki/loki/api/v1/push"}
        """;
    // the x-sf helper key itself is unknown at the root
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessage(
            "invalid configuration:\n  x-sf: unknown configuration key (check for typos; see the"
                + " configuration reference for valid keys)");
    String inline =
        yaml.replace(
            "x-sf: &sf",
            "service:\n  log_level: &lvl info\n  log_format: json\nsalesforce_defaults_unused: &sf");
    assertThatThrownBy(() -> load(dir, inline))
        .hasMessageContaining("salesforce_defaults_unused: unknown");
    String anchoredInOrg =
        """
        orgs:
          - name: a
            salesforce: &sf
              client_id: shared
              username: u@x.com
              private_key: K
            sources: {pubsub: {topics: ["*"]}}
          - name: b
            salesforce:
              <<: *sf
              client_id: b-id
        sink:
          loki: {url: "http://loki/loki/api/v1/push"}
        """;
    Sf2lokiConfig cfg = load(dir, anchoredInOrg);
    assertThat(cfg.orgs().get(0).salesforce().clientId()).isEqualTo("shared");
    assertThat(cfg.orgs().get(1).salesforce().clientId()).isEqualTo("b-id");
    assertThat(cfg.orgs().get(1).salesforce().username()).isEqualTo("u@x.com");
    assertThatThrownBy(() -> load(dir, MINIMAL + "sink: {}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("duplicate key 'sink'");
  }

  @Test
  @DisplayName("CFG-2: alias expansion is bounded (no billion-laughs blow-up)")
  void aliasBomb() {
    StringBuilder yaml = new StringBuilder("a0: &a0 [x, x]\n");
    for (int i = 1; i < 30; i++) {
      yaml.append("a")
          .append(i)
          .append(": &a")
          .append(i)
          .append(" [*a")
          .append(i - 1)
          .append(", *a")
          .append(i - 1)
          .append("]\n");
    }
    assertThatThrownBy(() -> new ConfigLoader().load(write(dir, yaml.toString()), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("via aliases");
  }

  @Test
  @DisplayName(
      "CFG-4: nesting past the parser's depth limit and a 4 MiB scalar fail with ConfigException"
          + " (the fuzz target's sizes beyond its input length)")
  void deepNestingAndHugeScalar() {
    String deep = "sink: " + "[".repeat(5000) + "]".repeat(5000) + "\n";
    assertThatThrownBy(() -> new ConfigLoader().load(write(dir, deep), Map.of()))
        .isInstanceOf(ConfigException.class);
    String huge = MINIMAL + "service:\n  name: " + "x".repeat(4 << 20) + "\n";
    assertThatThrownBy(() -> new ConfigLoader().load(write(dir, huge), Map.of()))
        .isInstanceOf(ConfigException.class);
  }
}
