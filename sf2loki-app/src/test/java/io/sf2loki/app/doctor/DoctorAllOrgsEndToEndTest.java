package io.sf2loki.app.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.cli.Cli;
import io.sf2loki.app.cli.HealthProbe;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.run.AppCommandActions;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.org.SimOrg;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code doctor --all-orgs} against two simulated orgs and one Loki receiver (SPEC FEAT-9, DOC-6):
 * per-org rows for each org, prefixed {@code <org>/}, the deployment-wide rows once.
 */
class DoctorAllOrgsEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private SimOrg alpha;
  private SimOrg beta;
  private LokiReceiver loki;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws Exception {
    RSAPublicKey key = DemoScenario.writeJwtKey(dir.resolve("jwt.key"));
    alpha = SimOrg.builder().jwtPublicKey(key).orgId("00D0000000000AAAAA").start();
    beta = SimOrg.builder().jwtPublicKey(key).orgId("00D0000000000BBBBB").start();
    loki = LokiReceiver.start();
    Instant created = Instant.now().minus(Duration.ofHours(2));
    for (SimOrg org : List.of(alpha, beta)) {
      org.addGeneratedLogFile("Login", "Hourly", created.minus(Duration.ofHours(1)), created, 3, 1);
    }
  }

  @AfterEach
  void stop() {
    alpha.close();
    beta.close();
    loki.close();
  }

  private static String orgYaml(String name, SimOrg org, String clientId, Path key, String extra) {
    return """
          - name: %s
            salesforce:
              login_url: "%s"
              client_id: %s
              username: integration@example.com
              private_key_file: "%s"
            sources:
              pubsub:
                enabled: false
              eventlogfile:
                enabled: true
                interval: Hourly
                event_types: [Login]
        %s"""
        .formatted(name, org.instanceUrl(), clientId, key, extra);
  }

  /** alpha is healthy; beta's client id is not the connected app's consumer key. */
  private Path config(String alphaExtra) throws Exception {
    String yaml =
        "orgs:\n"
            + orgYaml("alpha", alpha, "sim-client-id", dir.resolve("jwt.key"), alphaExtra)
            + orgYaml("beta", beta, "not-the-consumer-key", dir.resolve("jwt.key"), "")
            + """
            sink:
              loki:
                url: "%s"
            state:
              file:
                path: "%s"
            """
                .formatted(loki.pushUrl(), dir.resolve("state.json"));
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private int doctor(Path cfg, String... extra) {
    List<String> args = new ArrayList<>(List.of("doctor", "--config", cfg.toString()));
    args.addAll(List.of(extra));
    PrintWriter w = new PrintWriter(err, true, StandardCharsets.UTF_8);
    return new Cli(
            new AppCommandActions(
                Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)),
            w,
            w,
            new HealthProbe())
        .execute(args.toArray(String[]::new));
  }

  private JsonNode json() throws Exception {
    return JSON.readTree(out.toString(StandardCharsets.UTF_8));
  }

  private static List<String> names(JsonNode report) {
    List<String> names = new ArrayList<>();
    report.get("checks").forEach(c -> names.add(c.get("name").asText()));
    return names;
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
      "FEAT-9/DOC-6: doctor --all-orgs checks both orgs (rows prefixed <org>/) and the"
          + " deployment-wide rows once; beta's wrong client id FAILs beta/auth only (its hint names"
          + " orgs.1.salesforce.client_id), alpha's rows pass, exit 1 (DOC-1 over all rows)")
  void feat9_allOrgs() throws Exception {
    int code = doctor(config(""), "--all-orgs", "--json");
    JsonNode r = json();
    assertThat(code).as(r.toString()).isEqualTo(1);
    assertThat(r.get("exit_code").asInt()).isEqualTo(1);
    assertThat(names(r))
        .containsExactly(
            "config",
            "alpha/auth",
            "alpha/permissions",
            "alpha/pubsub",
            "alpha/entitlement",
            "alpha/traceflags",
            "alpha/transforms",
            "alpha/limits",
            "beta/auth",
            "beta/permissions",
            "beta/pubsub",
            "beta/entitlement",
            "beta/traceflags",
            "beta/transforms",
            "beta/limits",
            "loki",
            "telemetry",
            "state",
            "coordinator");
    for (JsonNode c : r.get("checks")) {
      String name = c.get("name").asText();
      if (!name.startsWith("beta/")) {
        assertThat(c.get("status").asText()).as(c.toString()).isNotIn("FAIL", "WARN");
      }
    }
    for (String n : List.of("alpha/auth", "alpha/permissions", "alpha/entitlement", "loki")) {
      assertThat(row(r, n).get("status").asText()).as(n).isEqualTo("PASS");
    }
    assertThat(row(r, "alpha/auth").get("detail").asText()).contains("org_id=00D0000000000AAAAA");
    JsonNode auth = row(r, "beta/auth");
    assertThat(auth.get("status").asText()).isEqualTo("FAIL");
    assertThat(auth.get("detail").asText())
        .contains("invalid_client_id")
        .contains("hint: orgs.1.salesforce.client_id is not the consumer key");
    for (String n : List.of("permissions", "entitlement", "traceflags", "limits")) {
      assertThat(row(r, "beta/" + n).get("detail").asText()).isEqualTo("skipped: auth failed");
    }
    assertThat(loki.entries())
        .as("the deployment's one test write")
        .filteredOn(e -> e.line().contains("sf2loki doctor test write"))
        .hasSize(1);
  }

  @Test
  @DisplayName(
      "FEAT-9/DOC-6/FEAT-6: an org with its own orgs[].loki identity gets its own <org>/loki row,"
          + " a test write in its tenant carrying its org labels")
  void feat9_ownLokiIdentity() throws Exception {
    int code = doctor(config("    loki:\n      tenant_id: team-a\n"), "--all-orgs", "--json");
    JsonNode r = json();
    assertThat(code).as(r.toString()).isEqualTo(1); // beta's auth still fails
    assertThat(row(r, "alpha/loki").get("status").asText()).isEqualTo("PASS");
    assertThat(names(r)).doesNotContain("beta/loki").contains("loki");
    List<String> tenants = new ArrayList<>();
    loki.requests().forEach(q -> tenants.add(q.tenant()));
    assertThat(tenants).contains("team-a").hasSize(2);
    assertThat(loki.entries(Map.of("org", "alpha", "source", "sf2loki-doctor"))).hasSize(1);
  }

  @Test
  @DisplayName(
      "DOC-6/FEAT-6: doctor --org NAME writes its loki test entry through that org's own"
          + " orgs[].loki identity (its tenant), not the shared sink.loki one")
  void orgWithOwnLokiIdentity() throws Exception {
    int code = doctor(config("    loki:\n      tenant_id: team-a\n"), "--org", "alpha", "--json");
    JsonNode r = json();
    assertThat(code).as(r.toString()).isZero();
    assertThat(row(r, "loki").get("status").asText()).isEqualTo("PASS");
    List<String> tenants = new ArrayList<>();
    loki.requests().forEach(q -> tenants.add(q.tenant()));
    assertThat(tenants).containsExactly("team-a");
  }

  @Test
  @DisplayName(
      "DOC-2 row 1b/DOC-6: without --all-orgs a multi-org doctor checks the first org only and says"
          + " so (WARN naming --all-orgs); the other org's wrong client id goes unnoticed, exit 0")
  void withoutAllOrgs_firstOrgOnly() throws Exception {
    int code = doctor(config(""), "--json");
    JsonNode r = json();
    assertThat(code).as(r.toString()).isZero();
    assertThat(row(r, "org").get("status").asText()).isEqualTo("WARN");
    assertThat(row(r, "org").get("detail").asText())
        .isEqualTo("operates on org alpha only; --all-orgs checks every org");
    assertThat(names(r)).noneMatch(n -> n.contains("/"));
    assertThat(row(r, "auth").get("status").asText()).isEqualTo("PASS");
  }

  @Test
  @DisplayName("FEAT-9/DOC-6: --all-orgs on a single-org configuration is plain doctor (no prefix)")
  void allOrgsOnSingleOrg() throws Exception {
    Path single =
        Files.writeString(
            dir.resolve("single.yaml"),
            """
            salesforce:
              login_url: "%s"
              client_id: sim-client-id
              username: integration@example.com
              private_key_file: "%s"
            sources:
              pubsub:
                enabled: false
              eventlogfile:
                enabled: true
                interval: Hourly
                event_types: [Login]
            sink:
              loki:
                url: "%s"
            state:
              file:
                path: "%s"
            """
                .formatted(
                    alpha.instanceUrl(),
                    dir.resolve("jwt.key"),
                    loki.pushUrl(),
                    dir.resolve("state.json")));
    int code = doctor(single, "--all-orgs", "--json");
    JsonNode r = json();
    assertThat(code).as(r.toString()).isZero();
    assertThat(names(r)).noneMatch(n -> n.contains("/")).contains("auth", "loki", "limits");
  }
}
