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
          List.of(
              new StatusSnapshot.Source("pubsub:/event/LoginEventStream", "AAA=", 12, "ok", ""),
              new StatusSnapshot.Source(
                  "elf:Login", "2026-12-01T00:00:00Z", 60, "error", "<b>x</b>"),
              new StatusSnapshot.Source("object:LoginEvent", "", -1, "none", "")),
          List.of(new StatusSnapshot.Lane("bulk", 3, 4096, "")),
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
        .containsExactly("version", "role", "epoch", "readiness", "sources", "lanes", "governor");
    assertThat(n.get("version").asText()).isEqualTo("1.2.3");
    assertThat(n.get("epoch").asLong()).isEqualTo(7);
    assertThat(n.get("sources")).hasSize(3);
    JsonNode src = n.get("sources").get(1);
    assertThat(src.fieldNames())
        .toIterable()
        .containsExactly("name", "position", "ageSeconds", "lastPoll", "lastError");
    assertThat(src.get("lastPoll").asText()).isEqualTo("error");
    JsonNode lane = n.get("lanes").get(0);
    assertThat(lane.get("depth").asLong()).isEqualTo(3);
    assertThat(lane.get("bytes").asLong()).isEqualTo(4096);
    assertThat(n.get("governor").get("paused").isBoolean()).isTrue();
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
  @DisplayName("FEAT-3: the HTML page rendered in headless chromium shows one row per source")
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
    assertThat(dom).contains("id=\"sources\"");
    String body = dom.substring(dom.indexOf("id=\"sources\""));
    body = body.substring(body.indexOf("<tbody>"), body.indexOf("</tbody>"));
    assertThat(body.split("<tr>", -1)).hasSize(snapshot.sources().size() + 1);
    assertThat(body).contains("elf:Login").contains("object:LoginEvent");
  }
}
