package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static io.sf2loki.app.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigValidationTest {
  @TempDir Path dir;

  private static final String SINK = "sink:\n  loki: {url: 'http://loki/loki/api/v1/push'}\n";

  private static String sf(String salesforceBody) {
    return "salesforce:\n"
        + salesforceBody
        + "sources:\n  pubsub:\n    topics: [/event/LoginEventStream]\n"
        + SINK;
  }

  // ---- CFG-7 / CFG-8 secrets ----

  @Test
  @DisplayName("CFG-7: a secret file is read as UTF-8 and trimmed; inline wins without reading")
  void secretFromFile() throws IOException {
    Path key = dir.resolve("key.pem");
    Files.writeString(key, "\n  PEM-CONTENT \n");
    Sf2lokiConfig cfg =
        load(dir, sf("  client_id: c\n  username: u@x.com\n  private_key_file: " + key + "\n"));
    assertThat(cfg.orgs().get(0).salesforce().privateKey().orElseThrow().reveal())
        .isEqualTo("PEM-CONTENT");
    Sf2lokiConfig inline =
        load(
            dir,
            sf(
                "  client_id: c\n  username: u@x.com\n  private_key: INLINE\n"
                    + "  private_key_file: /does/not/exist\n"));
    assertThat(inline.orgs().get(0).salesforce().privateKey().orElseThrow().reveal())
        .isEqualTo("INLINE");
  }

  @Test
  @DisplayName(
      "CFG-7/CFG-8: an empty secret file counts as absent, so the required secret is missing")
  void emptySecretFileIsAbsent() throws IOException {
    Path key = dir.resolve("empty.pem");
    Files.writeString(key, "  \n");
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    sf(
                        "  client_id: c\n  username: u@x.com\n  private_key: '  '\n  private_key_file: "
                            + key
                            + "\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("  salesforce.private_key: required when auth_mode is jwt_bearer");
  }

  @Test
  @DisplayName("CFG-8: client_credentials needs client_secret; jwt_bearer needs username")
  void requiredSecretsPerMode() {
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    sf(
                        "  client_id: c\n  auth_mode: client_credentials\n"
                            + "  login_url: https://acme.my.salesforce.com\n")))
        .hasMessageContaining(
            "salesforce.client_secret: required when auth_mode is client_credentials");
    assertThatThrownBy(() -> load(dir, sf("  client_id: c\n  private_key: K\n")))
        .hasMessageContaining("salesforce.username: required when auth_mode is jwt_bearer");
  }

  @Test
  @DisplayName("CFG-7: a permission failure names the path, uid 10001 and mode 0640")
  void permissionDeniedMessage() {
    Path yaml =
        write(
            dir, sf("  client_id: c\n  username: u@x.com\n  private_key_file: /run/secrets/key\n"));
    ConfigLoader loader =
        new ConfigLoader(
            p -> {
              throw new AccessDeniedException(p.toString());
            });
    assertThatThrownBy(() -> loader.load(yaml, Map.of()))
        .hasMessageContaining(
            "salesforce.private_key_file: cannot read salesforce.private_key from /run/secrets/key")
        .hasMessageContaining("10001")
        .hasMessageContaining("0640");
  }

  @Test
  @DisplayName("CFG-7: any other read failure reads 'cannot read <what> from <path>: <reason>'")
  void otherReadFailure() {
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    sf(
                        "  client_id: c\n  username: u@x.com\n  private_key_file: "
                            + dir.resolve("nope")
                            + "\n")))
        .hasMessageContaining(
            "cannot read salesforce.private_key from " + dir.resolve("nope") + ": no such file");
  }

  @Test
  @DisplayName("CFG-7: secret values never appear in error text or toString")
  void secretNeverInMessages() {
    String yaml =
        sf(
            "  client_id: c\n  username: 'bad user!'\n  private_key: TOPSECRETKEY\n"
                + "  client_secret: ALSOSECRET\n  token_ttl: 1m\n");
    assertThatThrownBy(() -> load(dir, yaml))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .contains("salesforce.username")
                    .contains("salesforce.token_ttl: must be at least 5m")
                    .doesNotContain("TOPSECRETKEY")
                    .doesNotContain("ALSOSECRET"));
    Sf2lokiConfig ok =
        load(dir, sf("  client_id: c\n  username: u@x.com\n  private_key: TOPSECRETKEY\n"));
    assertThat(ok.toString()).doesNotContain("TOPSECRETKEY").contains("***");
    assertThat(new Secret("x").toString()).isEqualTo("***");
  }

  @Test
  @DisplayName("CFG-8: multi-org secret errors are prefixed with the org name")
  void multiOrgPrefix() {
    String yaml =
        "orgs:\n  - name: eu\n    salesforce: {client_id: c, username: u@x.com}\n"
            + "    sources: {pubsub: {topics: ['*']}}\n"
            + SINK;
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("  orgs.0.salesforce.private_key: org 'eu': required");
  }

  // ---- CFG-9 telemetry ----

  @Test
  @DisplayName("CFG-9: enabled telemetry needs an endpoint and basic credentials")
  void telemetryRequirements() {
    String yaml = MINIMAL + "service:\n  telemetry:\n    enabled: true\n";
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("service.telemetry.endpoint: required")
        .hasMessageContaining("service.telemetry.basic_auth_user: required")
        .hasMessageContaining("service.telemetry.basic_auth_token: required");
    String none =
        MINIMAL
            + "service:\n  telemetry:\n    enabled: true\n    auth: none\n    endpoint: http://o/v1/metrics\n";
    assertThat(load(dir, none).service().telemetry().otlpEnabled()).isTrue();
  }

  // ---- CFG-10 patterns ----

  @Test
  @DisplayName("CFG-10: api_version, org_id, org names and SOQL identifiers are checked")
  void namePatterns() {
    String yaml =
        sf("  client_id: c\n  username: u@x.com\n  private_key: K\n  api_version: v60\n"
                + "  org_id: 00D12\n")
            .replace(
                "  pubsub:",
                "  eventlog_objects:\n    objects:\n      - name: 'Login Event'\n  pubsub:");
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("salesforce.api_version")
        .hasMessageContaining("salesforce.org_id")
        .hasMessageContaining("sources.eventlog_objects.objects.0.name");
    String badOrg =
        "orgs:\n  - name: 'bad name'\n    salesforce: {client_id: c, username: u@x.com, private_key: K}\n"
            + SINK;
    assertThatThrownBy(() -> load(dir, badOrg)).hasMessageContaining("orgs.0.name: must match");
  }

  // ---- CFG-13 / CFG-14 ----

  @Test
  @DisplayName("CFG-13: client_credentials against a generic login host is rejected")
  void clientCredentialsGenericHost() {
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    sf("  client_id: c\n  auth_mode: client_credentials\n  client_secret: S\n")))
        .hasMessageContaining("salesforce.login_url:")
        .hasMessageContaining("My Domain");
    Sf2lokiConfig ok =
        load(
            dir,
            sf(
                "  client_id: c\n  auth_mode: client_credentials\n  client_secret: S\n"
                    + "  login_url: https://acme.my.salesforce.com\n"));
    assertThat(ok.orgs().get(0).salesforce().loginUrl())
        .isEqualTo("https://acme.my.salesforce.com");
  }

  // ---- CFG-15 / CFG-16 labels ----

  @Test
  @DisplayName(
      "CFG-15: static labels outside the allowlist, source/event_type and bad names are all listed")
  void staticLabelAllowlist() {
    String yaml =
        MINIMAL.replace(
            "url: http",
            "labels: {job: a, source: b, event_type: c, team: d, '1bad': e}\n    url: http");
    assertThatThrownBy(() -> load(dir, yaml))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e -> {
              ConfigException ce = (ConfigException) e;
              assertThat(ce.problems()).hasSize(1);
              assertThat(ce.problems().get(0).path()).isEqualTo("sink.loki.labels");
              assertThat(ce.problems().get(0).message())
                  .startsWith("label key(s) source, event_type, team, 1bad not allowed");
            });
  }

  @Test
  @DisplayName("CFG-15: multi-org also rejects org, sf_org_id and environment")
  void staticLabelsMultiOrg() {
    String yaml =
        "orgs:\n  - name: a\n    salesforce: {client_id: c, username: u@x.com, private_key: K}\n"
            + "sink:\n  loki:\n    url: 'http://loki/loki/api/v1/push'\n"
            + "    labels: {job: j, org: o, sf_org_id: s, environment: e}\n";
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("label key(s) org, sf_org_id, environment not allowed");
    // single-org allows them
    String single =
        MINIMAL.replace(
            "url: http", "labels: {org: o, sf_org_id: s, environment: e}\n    url: http");
    assertThat(load(dir, single).loki().labels()).hasSize(3);
  }

  @Test
  @DisplayName("CFG-16: reserved promoted labels and more than 15 label names are rejected")
  void elfLabels() {
    String reserved =
        MINIMAL.replace(
            "  pubsub:",
            "  eventlogfile:\n    event_types:\n      - {name: Login, labels: [late, service_name, USER_TYPE]}\n  pubsub:");
    assertThatThrownBy(() -> load(dir, reserved))
        .hasMessageContaining("'late' is reserved")
        .hasMessageContaining("'service_name' is reserved");
    String many =
        MINIMAL.replace(
            "  pubsub:",
            "  eventlogfile:\n    event_types:\n      - {name: API, labels: [A1, A2, A3, A4, A5, A6, A7, A8]}\n  pubsub:");
    assertThatThrownBy(() -> load(dir, many))
        .hasMessageContaining(
            "sources.eventlogfile.event_types.0.labels: event type 'API' would carry 16 label names");
  }

  // ---- CFG-17 ----

  @Test
  @DisplayName("CFG-17: enabled ELF needs event_types; drop_field on a promoted column is rejected")
  void elfRules() {
    String empty = MINIMAL.replace("  pubsub:", "  eventlogfile: {enabled: true}\n  pubsub:");
    assertThatThrownBy(() -> load(dir, empty))
        .hasMessageContaining("sources.eventlogfile.event_types: must not be empty");
    String drop =
        MINIMAL.replace(
            "  pubsub:",
            "  eventlogfile:\n    event_types: [{name: Login, labels: [USER_TYPE]}]\n"
                + "    transforms: [{action: drop_field, fields: [USER_TYPE]}]\n  pubsub:");
    assertThatThrownBy(() -> load(dir, drop))
        .hasMessageContaining(
            "sources.eventlogfile.transforms.0.fields: drop_field cannot remove 'USER_TYPE'");
  }

  // ---- CFG-19 ----

  @Test
  @DisplayName("CFG-19: transform rule structure is validated at load")
  void transformStructure() {
    String yaml =
        MINIMAL.replace(
            "    topics:",
            "    transforms:\n"
                + "      - {action: drop_row, fields: [A]}\n"
                + "      - {action: hash}\n"
                + "      - {action: mask, fields: [A], pattern: x}\n"
                + "      - {action: regex_replace, fields: [A]}\n"
                + "      - {action: regex_replace, fields: [A], pattern: '(unclosed'}\n"
                + "      - {action: explode, fields: [A]}\n"
                + "    topics:");
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("sources.pubsub.transforms.0.fields: not allowed for drop_row")
        .hasMessageContaining("sources.pubsub.transforms.0.match: required")
        .hasMessageContaining("sources.pubsub.transforms.1.fields: required")
        .hasMessageContaining("sources.pubsub.transforms.2.pattern: only allowed for regex_replace")
        .hasMessageContaining("sources.pubsub.transforms.3.pattern: required")
        .hasMessageContaining(
            "sources.pubsub.transforms.4.pattern: outside the portable regex grammar (XF-5): at code point 0 (0-based):"
                + " missing ')'")
        .hasMessageContaining("sources.pubsub.transforms.5.action: must be one of");
  }

  @Test
  @DisplayName("CFG-19, XF-5: a pattern or replacement outside the portable subset is refused")
  void cfg19_portableRegex() {
    String yaml =
        MINIMAL.replace(
            "    topics:",
            "    transforms:\n"
                + "      - {action: regex_replace, fields: [A], pattern: '(?<=x)y'}\n"
                + "      - {action: regex_replace, fields: [A], pattern: '(a)\\1'}\n"
                + "      - {action: regex_replace, fields: [A], pattern: '(a)', replacement: '\\2'}\n"
                + "      - {action: regex_replace, fields: [A], pattern: 'a', replacement: '\\x41'}\n"
                + "      - {action: regex_replace, fields: [A], pattern: 'a{,2}'}\n"
                + "      - {action: regex_replace, fields: [A], pattern: '(?P<user>\\w+)@(?P<host>\\S+)',"
                + " replacement: '\\g<user>@*** $1 \\1'}\n"
                + "    topics:");
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining(
            "sources.pubsub.transforms.0.pattern: outside the portable regex grammar (XF-5): at code point 0 (0-based):"
                + " look-around is not portable")
        .hasMessageContaining(
            "sources.pubsub.transforms.1.pattern: outside the portable regex grammar (XF-5): at code point 3 (0-based):"
                + " numbered back-references")
        .hasMessageContaining(
            "sources.pubsub.transforms.2.replacement: not a portable replacement (XF-5): at code point 0 (0-based):"
                + " invalid group reference 2")
        .hasMessageContaining(
            "sources.pubsub.transforms.3.replacement: not a portable replacement (XF-5): at code point 0 (0-based):"
                + " escape \\x")
        .hasMessageContaining(
            "sources.pubsub.transforms.4.pattern: outside the portable regex grammar (XF-5): at code point 1 (0-based):"
                + " '{' that does not start a valid quantifier")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("transforms.5"))
        .satisfies( // each refusal cites XF-5 once
            e ->
                assertThat(e.getMessage().lines())
                    .allSatisfy(
                        l -> assertThat(l.indexOf("XF-5")).isEqualTo(l.lastIndexOf("XF-5"))));
  }

  // ---- CFG-20 / CFG-21 / CFG-22 ----

  @Test
  @DisplayName("CFG-20: ranges of rates, sizes and counts")
  void ranges() {
    String yaml =
        MINIMAL
                .replace(
                    "    topics:",
                    "    default_num_requested: 101\n    sample: {'*': 0}\n    topics:")
                .replace(
                    "url: http",
                    "batch: {max_entries: 0, max_bytes: 1023, queue_maxsize: 99, queue_max_bytes: -1}\n"
                        + "    egress: {daily_byte_budget: -1}\n    url: http")
            + "";
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("sources.pubsub.default_num_requested: must be between 1 and 100")
        .hasMessageContaining("sources.pubsub.sample.*: sampling rate")
        .hasMessageContaining("sink.loki.batch.max_entries: must be at least 1")
        .hasMessageContaining("sink.loki.batch.max_bytes: must be at least 1024")
        .hasMessageContaining("sink.loki.batch.queue_maxsize: must be at least 100")
        .hasMessageContaining("sink.loki.batch.queue_max_bytes: must be at least 0")
        .hasMessageContaining("sink.loki.egress.daily_byte_budget: must be at least 0");
    String pageSize =
        MINIMAL.replace(
            "  pubsub:", "  eventlogfile: {page_size: 50001, concurrency: 0}\n  pubsub:");
    assertThatThrownBy(() -> load(dir, pageSize))
        .hasMessageContaining("sources.eventlogfile.page_size")
        .hasMessageContaining("sources.eventlogfile.concurrency");
  }

  @Test
  @DisplayName("CFG-21: 2 × renew_interval must be strictly less than the lease time")
  void leaseRenewRule() {
    String yaml =
        MINIMAL
            + "coordinate:\n  file_lease: {ttl: 20s, renew_interval: 10s}\n"
            + "  k8s_lease: {lease_duration: 30s, renew_interval: 15s}\n";
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("coordinate.file_lease.renew_interval")
        .hasMessageContaining("coordinate.k8s_lease.renew_interval");
  }

  @Test
  @DisplayName("CFG-22: the bucket is required for s3 and gcs stores")
  void bucketsRequired() {
    assertThatThrownBy(() -> load(dir, MINIMAL + "state: {store: s3}\n"))
        .hasMessageContaining("state.s3.bucket: required");
    assertThatThrownBy(() -> load(dir, MINIMAL + "state: {store: gcs}\n"))
        .hasMessageContaining("state.gcs.bucket: required");
  }

  @Test
  @DisplayName("STATE-15: state.gcs.endpoint_url and anonymous bind; they default to absent/false")
  void state15_gcsEmulatorKeys() {
    Sf2lokiConfig cfg =
        load(
            dir,
            MINIMAL
                + "state: {store: gcs, gcs: {bucket: b, endpoint_url: 'http://127.0.0.1:4443',"
                + " anonymous: true}}\n");
    assertThat(cfg.state().gcs().endpoint())
        .isEqualTo(java.net.URI.create("http://127.0.0.1:4443"));
    assertThat(cfg.state().gcs().anonymous()).isTrue();
    Sf2lokiConfig dflt = load(dir, MINIMAL + "state: {store: gcs, gcs: {bucket: b}}\n");
    assertThat(dflt.state().gcs().endpoint())
        .isEqualTo(java.net.URI.create("https://storage.googleapis.com"));
    assertThat(dflt.state().gcs().anonymous()).isFalse();
  }

  // ---- CFG-24 / pubsub.tls warnings ----

  @Test
  @DisplayName("CFG-24: a hash rule without salt warns; pubsub.tls=false on a remote host warns")
  void warnings() {
    String yaml =
        MINIMAL.replace(
            "    topics:",
            "    tls: false\n    endpoint: pubsub.example.com:7443\n"
                + "    transforms: [{action: hash, fields: [UserId]}]\n    topics:");
    Sf2lokiConfig cfg = load(dir, yaml);
    assertThat(cfg.warnings()).hasSize(2);
    assertThat(cfg.warnings()).anySatisfy(w -> assertThat(w).contains("hash-0").contains("pubsub"));
    assertThat(cfg.warnings()).anySatisfy(w -> assertThat(w).contains("plaintext"));
    String local =
        MINIMAL.replace("    topics:", "    tls: false\n    endpoint: 127.0.0.1:7011\n    topics:");
    assertThat(load(dir, local).warnings()).isEmpty();
  }

  @Test
  @DisplayName("OBJ-13: a revisit_window wider than sink.loki.out_of_order_window loads but warns")
  void revisitWiderThanOutOfOrderWindowWarns() {
    String objects =
        "  eventlog_objects:\n    enabled: true\n    objects:\n"
            + "      - {name: LoginHistory, timestamp_field: LoginTime, revisit_window: 2h}\n"
            + "      - {name: SetupAuditTrail, timestamp_field: CreatedDate}\n"
            + "  apexlog:\n    enabled: true\n    revisit_window: 45m\n";
    String yaml =
        MINIMAL
            .replace("sink:\n", objects + "sink:\n")
            .replace("push\n", "push\n    out_of_order_window: 30m\n");
    Sf2lokiConfig cfg = load(dir, yaml);
    assertThat(cfg.warnings())
        .hasSize(2)
        .anySatisfy(
            w ->
                assertThat(w)
                    .startsWith("sources.eventlog_objects.objects.0.revisit_window=PT2H")
                    .contains("out_of_order_window=PT30M"))
        .anySatisfy(w -> assertThat(w).startsWith("sources.apexlog.revisit_window=PT45M"));
    assertThat(
            load(dir, yaml.replace("out_of_order_window: 30m", "out_of_order_window: 0s"))
                .warnings())
        .isEmpty();
    assertThat(
            load(dir, yaml.replace("out_of_order_window: 30m", "out_of_order_window: 3h"))
                .warnings())
        .isEmpty();
  }

  @Test
  @DisplayName("PS-19: a topic name without /event/ or /data/ loads but warns once")
  void topicWithoutPrefixWarns() {
    String yaml =
        MINIMAL.replace(
            "topics: [/event/LoginEventStream]",
            "topics: [LoginEventStream, /data/AccountChangeEvent, '*']");
    Sf2lokiConfig cfg = load(dir, yaml);
    assertThat(cfg.warnings())
        .singleElement()
        .satisfies(w -> assertThat(w).contains("'LoginEventStream'").contains("/event/"));
  }

  // ---- CFG-28 ----

  @Test
  @DisplayName("CFG-28: no source can produce data → 'no source enabled: <reason>' for the daemon")
  void noSourceEnabled() {
    String yaml = MINIMAL.replace("    topics: [/event/LoginEventStream]\n", "");
    Sf2lokiConfig cfg = load(dir, yaml); // loads: backfill/state/config do not apply CFG-28
    assertThatThrownBy(() -> ConfigLoader.validateForDaemon(cfg))
        .isInstanceOf(ConfigException.class)
        .hasMessage("no source enabled: pubsub has no topics and every other source is disabled");
  }

  @Test
  @DisplayName(
      "CFG-28: topics filtered out by include/exclude do not count; '*' and other sources do")
  void sourceAvailability() {
    String filtered = MINIMAL.replace("    topics:", "    exclude: ['/event/Login*']\n    topics:");
    assertThatThrownBy(() -> ConfigLoader.validateForDaemon(load(dir, filtered)))
        .hasMessageContaining("pubsub has no topic that passes its include/exclude filters");
    ConfigLoader.validateForDaemon(load(dir, MINIMAL));
    ConfigLoader.validateForDaemon(
        load(dir, MINIMAL.replace("[/event/LoginEventStream]", "['*']")));
    String apexOnly =
        MINIMAL.replace(
            "  pubsub:\n    topics: [/event/LoginEventStream]\n",
            "  pubsub: {enabled: false}\n  apexlog: {enabled: true}\n");
    ConfigLoader.validateForDaemon(load(dir, apexOnly));
    String allOff =
        MINIMAL.replace(
            "  pubsub:\n    topics: [/event/LoginEventStream]\n", "  pubsub: {enabled: false}\n");
    assertThatThrownBy(() -> ConfigLoader.validateForDaemon(load(dir, allOff)))
        .hasMessage("no source enabled: every source is disabled");
  }
}
