package io.sf2loki.app.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.cli.Cli;
import io.sf2loki.app.cli.HealthProbe;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.app.run.AppCommandActions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code doctor} against the simulated org, Pub/Sub and Loki receiver (DOC-1…DOC-3, CLI-10). */
class DoctorEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private DemoScenario s;
  private Path config;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws Exception {
    s = DemoScenario.start(5, false, true, Instant.now());
    s.addPubSubStreams(1);
    config = s.writeConfig(s.receiver().pushUrl(), s.dir().resolve("state.json"));
  }

  @AfterEach
  void stop() {
    s.close();
  }

  private int doctor(Path cfg, String... extra) {
    String[] args = new String[extra.length + 3];
    args[0] = "doctor";
    args[1] = "--config";
    args[2] = cfg.toString();
    System.arraycopy(extra, 0, args, 3, extra.length);
    PrintWriter w = new PrintWriter(err, true, StandardCharsets.UTF_8);
    return new Cli(
            new AppCommandActions(
                Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)),
            w,
            w,
            new HealthProbe())
        .execute(args);
  }

  private JsonNode json() throws Exception {
    return JSON.readTree(out.toString(StandardCharsets.UTF_8));
  }

  private static JsonNode row(JsonNode report, String name) {
    for (JsonNode r : report.get("checks")) {
      if (r.get("name").asText().equals(name)) {
        return r;
      }
    }
    throw new AssertionError("no row " + name + " in " + report);
  }

  @Test
  @DisplayName(
      "DOC-1/DOC-2/CLI-10: doctor --json against a healthy simulated org exits 0, every applicable"
          + " row PASS, the one test line reached Loki, no secret printed (DOC-3)")
  void healthy() throws Exception {
    int code = doctor(config, "--json");
    JsonNode r = json();
    assertThat(code).as(r.toString()).isZero();
    assertThat(r.get("exit_code").asInt()).isZero();
    for (JsonNode c : r.get("checks")) {
      assertThat(c.get("status").asText()).as(c.toString()).isIn("PASS", "SKIP");
    }
    for (String name :
        new String[] {"config", "auth", "permissions", "entitlement", "loki", "state", "limits"}) {
      assertThat(row(r, name).get("status").asText()).as(name).isEqualTo("PASS");
    }
    for (String topic : DemoScenario.DEMO_TOPICS) {
      assertThat(row(r, "pubsub:" + topic).get("detail").asText()).isEqualTo("topic reachable");
    }
    assertThat(row(r, "auth").get("detail").asText())
        .startsWith("flow=jwt_bearer instance_url=")
        .contains("org_id=");
    assertThat(s.receiver().entries())
        .anySatisfy(e -> assertThat(e.line()).contains("sf2loki doctor test write"));
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("PRIVATE KEY");
    assertThat(Files.exists(s.dir().resolve(StoreChecks.STATE_PROBE))).isFalse();
    assertThat(Files.exists(s.dir().resolve("state.json"))).as("DOC-3: no state write").isFalse();
  }

  @Test
  @DisplayName(
      "DOC-1: the table form prints NAME STATUS DETAIL rows and the 'P passed, W warnings, F failed,"
          + " S skipped' line")
  void table() {
    assertThat(doctor(config)).isZero();
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text.lines().findFirst().orElseThrow()).matches("NAME +STATUS +DETAIL");
    assertThat(text).containsPattern("(?m)^auth +PASS +flow=jwt_bearer");
    assertThat(text).containsPattern("(?m)^\\d+ passed, 0 warnings, 0 failed, \\d+ skipped$");
  }

  @Test
  @DisplayName(
      "DOC-2 row 2: a wrong client id FAILs the auth row with the operator's hint, skips the"
          + " Salesforce rows, and exits 1")
  void wrongClientId() throws Exception {
    Path bad =
        ConfigText.read(config)
            .replace("client_id: \"sim-client-id\"", "client_id: \"not-the-consumer-key\"")
            .writeTo(s.dir().resolve("bad.yaml"));
    int code = doctor(bad, "--json");
    JsonNode r = json();
    assertThat(code).isEqualTo(1);
    assertThat(r.get("exit_code").asInt()).isEqualTo(1);
    JsonNode auth = row(r, "auth");
    assertThat(auth.get("status").asText()).isEqualTo("FAIL");
    assertThat(auth.get("detail").asText())
        .contains("invalid_client_id")
        .contains("hint: salesforce.client_id is not the consumer key of a connected app");
    for (String n : new String[] {"permissions", "entitlement", "traceflags", "limits"}) {
      assertThat(row(r, n).get("detail").asText()).isEqualTo("skipped: auth failed");
    }
    assertThat(row(r, "loki").get("status").asText()).isEqualTo("PASS");
  }

  @Test
  @DisplayName(
      "DOC-2 row 12, OBS-21: with DailyApiRequests under the configured API reserve the limits row"
          + " WARNs that the polling sources would pause (exit 0)")
  void limitsUnderReserve() throws Exception {
    s.org().setDailyApiRequests(1000, 15000); // 6.7 %: under a 10 % reserve
    Path cfg =
        ConfigText.read(config)
            .replace(
                "sources:\n", "  limits:\n    enabled: true\n    reserve_percent: 10\nsources:\n")
            .writeTo(s.dir().resolve("reserve.yaml"));
    int code = doctor(cfg, "--json");
    JsonNode r = json();
    assertThat(code).as(r.toString()).isZero();
    JsonNode limits = row(r, "limits");
    assertThat(limits.get("status").asText()).isEqualTo("WARN");
    assertThat(limits.get("detail").asText())
        .contains("DailyApiRequests remaining 1000 of 15000")
        .contains("under the API reserve of 10.0 %");
  }

  @Test
  @DisplayName(
      "DOC-5, DOC-2 row 7: a Loki 400 puts Loki's body, on one line and cut to 200 characters,"
          + " in the FAIL row")
  void doc5LokiBadRequestCarriesBody() throws Exception {
    String body = "error at least one label pair is required per stream\n" + "x".repeat(400);
    s.receiver()
        .faults()
        .add(io.sf2loki.sim.loki.LokiFault.status(400).withBody(body).untilCleared());
    assertThat(doctor(config, "--json")).isEqualTo(1);
    JsonNode loki = row(json(), "loki");
    assertThat(loki.get("status").asText()).isEqualTo("FAIL");
    String detail = loki.get("detail").asText();
    assertThat(detail)
        .contains("HTTP 400")
        .contains("; loki said: error at least one label pair is required per stream x")
        .contains("x…")
        .doesNotContain("\n")
        .doesNotContain("x".repeat(200));
  }

  @Test
  @DisplayName(
      "DOC-2 row 3: a Salesforce 400 (INVALID_TYPE, Salesforce's error body) FAILs the"
          + " permissions row with 'HTTP 400: <body>' once, not the status prefix twice")
  void permissionsRowCarriesOneStatusPrefix() throws Exception {
    Path cfg =
        ConfigText.read(config)
            .replace(
                "  allow_overlap: true\n",
                "  allow_overlap: true\n"
                    + "  eventlog_objects:\n"
                    + "    enabled: true\n"
                    + "    objects:\n"
                    + "      - name: NoSuchThing__c\n"
                    + "        timestamp_field: CreatedDate\n")
            .writeTo(s.dir().resolve("unknown-object.yaml"));
    assertThat(doctor(cfg, "--json")).isEqualTo(1);
    JsonNode perm = row(json(), "permissions");
    assertThat(perm.get("status").asText()).isEqualTo("FAIL");
    String detail = perm.get("detail").asText();
    assertThat(detail)
        .startsWith("SELECT Id FROM NoSuchThing__c LIMIT 1: HTTP 400: [{")
        .contains("INVALID_TYPE")
        .contains("sObject type 'NoSuchThing__c' is not supported.")
        .doesNotContain("HTTP 400: HTTP 400");
  }

  @Test
  @DisplayName("DOC-5, DOC-4: a Loki 401 FAIL row carries Loki's body and then the tenant hint")
  void doc5LokiUnauthorizedCarriesBodyAndHint() throws Exception {
    s.receiver()
        .faults()
        .add(io.sf2loki.sim.loki.LokiFault.status(401).withBody("no org id\n").untilCleared());
    assertThat(doctor(config, "--json")).isEqualTo(1);
    String detail = row(json(), "loki").get("detail").asText();
    assertThat(detail).contains("HTTP 401").contains("; loki said: no org id — hint: check sink");
  }

  @Test
  @DisplayName("DOC-2 row 7: with Loki down the loki row FAILs with a hint, exit 1")
  void lokiDown() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Path bad =
        ConfigText.read(config)
            .replace(
                "url: \"" + s.receiver().pushUrl() + "\"",
                "url: \"http://127.0.0.1:" + port + "/loki/api/v1/push\"")
            .writeTo(s.dir().resolve("noloki.yaml"));
    assertThat(doctor(bad, "--json")).isEqualTo(1);
    JsonNode loki = row(json(), "loki");
    assertThat(loki.get("status").asText()).isEqualTo("FAIL");
    assertThat(loki.get("detail").asText()).contains("hint: cannot reach");
    assertThat(row(json(), "auth").get("status").asText()).isEqualTo("PASS");
  }

  @Test
  @DisplayName(
      "DOC-2 row 10: an unreadable (corrupt) state file FAILs the state row, is left untouched,"
          + " exit 1")
  void corruptState() throws Exception {
    Path state = s.dir().resolve("state.json");
    Files.writeString(state, "{not json");
    assertThat(doctor(config, "--json")).isEqualTo(1);
    JsonNode st = row(json(), "state");
    assertThat(st.get("status").asText()).isEqualTo("FAIL");
    assertThat(st.get("detail").asText()).contains("is not valid JSON");
    assertThat(Files.readString(state)).isEqualTo("{not json");
  }

  @Test
  @DisplayName(
      "DOC-1/CFG-25: an unknown --org FAILs the org row with the CFG-25 message, the rest SKIP,"
          + " exit 2; an unloadable config FAILs the config row, exit 2")
  void unknownOrgAndBadConfig() throws Exception {
    assertThat(doctor(config, "--json", "--org", "nope")).isEqualTo(2);
    JsonNode r = json();
    assertThat(row(r, "org").get("detail").asText())
        .isEqualTo("--org 'nope' is not configured; available orgs: []");
    assertThat(row(r, "auth").get("status").asText()).isEqualTo("SKIP");
    out.reset();
    Path broken = Files.writeString(s.dir().resolve("broken.yaml"), "sink: {loki: {nope: 1}}\n");
    assertThat(doctor(broken, "--json")).isEqualTo(2);
    JsonNode b = json();
    assertThat(row(b, "config").get("status").asText()).isEqualTo("FAIL");
    assertThat(row(b, "loki").get("detail").asText()).isEqualTo("skipped: config failed");
  }
}
