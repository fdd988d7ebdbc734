package io.sf2loki.app.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusPageTest {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  final StatusSnapshot snapshot =
      new StatusSnapshot(
          "1.2.3",
          "leader",
          7,
          "ready",
          "2026-12-03T08:00:00Z",
          List.of(
              new StatusSnapshot.Source(
                  "pubsub:/event/LoginEventStream",
                  "AAA=",
                  "2026-12-03T07:59:48Z",
                  12,
                  "last_commit",
                  "ok",
                  "",
                  "2026-12-03T07:59:59.500Z",
                  "",
                  ""),
              new StatusSnapshot.Source(
                  "eventlogfile:Login",
                  "2026-12-03T06:59:00.000+0000",
                  "2026-12-03T06:59:00Z",
                  3660,
                  "watermark",
                  "error",
                  "SoqlException",
                  "2026-12-03T07:59:00Z",
                  "<b>x</b>",
                  "2026-12-03T07:59:00Z"),
              new StatusSnapshot.Source(
                  "eventlog_objects:LoginEvent", "-", "", -1, "", "-", "", "", "", "")),
          List.of(
              new StatusSnapshot.Lane("streaming", 0, 0, ""),
              new StatusSnapshot.Lane("bulk", 3, 4096, "2026-12-03T07:58:00Z")),
          new StatusSnapshot.Governor(false, ""));
  HealthServer server;
  HttpClient client;

  @BeforeEach
  void start() throws IOException {
    server =
        HealthServer.builder(new Readiness()).address("127.0.0.1:0").status(() -> snapshot).start();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  HttpResponse<String> get(String accept) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/statusz"));
    if (accept != null) {
      r.header("Accept", accept);
    }
    return client.send(r.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("FEAT-3: /statusz answers JSON by default with every section")
  void feat3_jsonByDefault() throws Exception {
    HttpResponse<String> r = get(null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue(StatusPage.JSON);
    JsonNode n = new ObjectMapper().readTree(r.body());
    assertThat(n.fieldNames())
        .toIterable()
        .containsExactly(
            "version",
            "role",
            "epoch",
            "readiness",
            "time",
            "sources",
            "lanes",
            "governor",
            "orgs");
    assertThat(n.get("version").asText()).isEqualTo("1.2.3");
    assertThat(n.get("epoch").asLong()).isEqualTo(7);
    assertThat(n.get("sources")).hasSize(3);
    JsonNode src = n.get("sources").get(1);
    assertThat(src.fieldNames())
        .toIterable()
        .containsExactly(
            "name",
            "position",
            "positionTime",
            "ageSeconds",
            "ageBasis",
            "lastPoll",
            "lastPollClass",
            "lastPollAt",
            "lastError",
            "lastErrorAt");
    assertThat(src.get("lastPoll").asText()).isEqualTo("error");
    assertThat(src.get("lastPollClass").asText()).isEqualTo("SoqlException");
    assertThat(src.get("ageSeconds").asLong()).isEqualTo(3660);
    JsonNode lane = n.get("lanes").get(1);
    assertThat(lane.get("depth").asLong()).isEqualTo(3);
    assertThat(lane.get("bytes").asLong()).isEqualTo(4096);
    assertThat(n.get("governor").get("paused").isBoolean()).isTrue();
    assertThat(errors(r.body())).isEmpty();
  }

  private static List<com.networknt.schema.Error> errors(String json) {
    return StatuszSchema.errors(json);
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35, OBS-36: the JSON schema rejects a missing field, an unknown field, a"
          + " multi-line error and an unknown poll result (the schema is not vacuous)")
  void feat3_schemaIsStrict() throws Exception {
    ObjectMapper m = new ObjectMapper();
    String good = StatusPage.json(snapshot);
    assertThat(errors(good)).isEmpty();
    var missing = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(good);
    missing.remove("time");
    assertThat(errors(missing.toString())).isNotEmpty();
    var extra = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(good);
    ((com.fasterxml.jackson.databind.node.ObjectNode) extra.get("lanes").get(0)).put("x", 1);
    assertThat(errors(extra.toString())).isNotEmpty();
    var multiLine = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(good);
    ((com.fasterxml.jackson.databind.node.ObjectNode) multiLine.get("sources").get(0))
        .put("lastError", "a\nb");
    assertThat(errors(multiLine.toString())).isNotEmpty();
    var badPoll = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(good);
    ((com.fasterxml.jackson.databind.node.ObjectNode) badPoll.get("sources").get(0))
        .put("lastPoll", "fine");
    assertThat(errors(badPoll.toString())).isNotEmpty();
  }

  @Test
  @DisplayName("FEAT-3: /statusz answers escaped HTML for Accept: text/html")
  void feat3_htmlEscaped() throws Exception {
    HttpResponse<String> r = get("text/html,application/xhtml+xml;q=0.9");
    assertThat(r.headers().firstValue("Content-Type")).hasValue(StatusPage.HTML);
    assertThat(r.body()).contains("&lt;b&gt;x&lt;/b&gt;").doesNotContain("<b>x</b>");
    assertThat(r.body()).contains("<td>pubsub:/event/LoginEventStream</td>");
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35, OBS-36: the HTML page rendered in headless chromium shows one row per"
          + " source (age, last poll, error class, escaped last error) and one row per lane (depth,"
          + " bytes, failing since)")
  void feat3_chromiumRendersOneRowPerSource(@TempDir Path profile) throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      if ("true".equals(System.getenv("CI"))) {
        fail("CI=true but " + CHROMIUM + " is missing (install Debian package chromium)");
      }
      assumeTrue(false, "skipped: " + CHROMIUM + " not installed (apt-get install chromium)");
    }
    Process p =
        new ProcessBuilder(
                CHROMIUM.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--dump-dom",
                "http://127.0.0.1:" + server.port() + "/statusz")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String dom;
    try (var in = p.getInputStream()) {
      dom = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    String body = tbody(dom, "sources");
    assertThat(body.split("<tr>", -1)).hasSize(snapshot.sources().size() + 1);
    assertThat(body)
        .contains("<td>eventlogfile:Login</td>")
        .contains("<td>eventlog_objects:LoginEvent</td>")
        .contains("<td>3660</td>")
        .contains("<td>SoqlException</td>")
        .contains("&lt;b&gt;x&lt;/b&gt;");
    String lanes = tbody(dom, "lanes");
    assertThat(lanes.split("<tr>", -1)).hasSize(snapshot.lanes().size() + 1);
    assertThat(lanes)
        .contains("<tr><td>bulk</td><td>3</td><td>4096</td><td>2026-12-03T07:58:00Z</td></tr>");
    assertThat(tbody(dom, "service")).contains("<td>leader</td><td>7</td>");
  }

  /** The rows of table {@code id} in chromium's DOM (its parser adds the implicit tbody). */
  private static String tbody(String dom, String id) {
    assertThat(dom).contains("id=\"" + id + "\"");
    String t = dom.substring(dom.indexOf("id=\"" + id + "\""));
    return t.substring(t.indexOf("<tbody>"), t.indexOf("</tbody>"));
  }
}
