package io.sf2loki.sim.org;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The simulator's real-format errors (ELF-5, SRC-27) and maintenance pages (SRC-28/29). */
class SimOrgRealErrorsTest {
  /** The ELF-5 listing exactly as the full-query fixture echoes it. */
  private static final String FIXTURE_QUERY =
      "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM EventLogFile"
          + " WHERE EventType='ApexExecution' AND Interval='Daily' AND CreatedDate >="
          + " 2026-11-28T23:30:04.000Z ORDER BY CreatedDate, Id LIMIT 1000";

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private SimOrg org;

  @AfterEach
  void close() {
    if (org != null) {
      org.close();
    }
    http.close();
  }

  private static String fixture(String name) throws Exception {
    try (InputStream in =
        SimOrgRealErrorsTest.class.getResourceAsStream("/fixtures/rest/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(org.instanceUrl() + path))
            .header("Authorization", "Bearer " + org.issueToken())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> query(String soql) throws Exception {
    return get("/services/data/v60.0/query?q=" + URLEncoder.encode(soql, StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName(
      "ELF-5, SRC-27: a no-Interval org with the full-query echo answers the ELF-5 listing with"
          + " exactly the 547-byte fixture body, generated from the query sent")
  void fullQueryEchoMatchesTheFixture() throws Exception {
    org =
        SimOrg.builder().hourlyAvailable(false).invalidFieldEcho(SoqlErrorEcho.FULL_QUERY).start();
    HttpResponse<String> r = query(FIXTURE_QUERY);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo(fixture("reconstructed_error_invalid_field_400_full_query.json"));
    assertThat(r.body().getBytes(StandardCharsets.UTF_8)).hasSize(547);
    assertThat(r.body().indexOf("\"errorCode\"")).isGreaterThan(500);
  }

  @Test
  @DisplayName(
      "ELF-5, SRC-27: the default windowed echo has Salesforce's shape and the short fixture's"
          + " length class (errorCode inside the first 500 characters)")
  void windowedEcho() throws Exception {
    org = SimOrg.builder().hourlyAvailable(false).start();
    HttpResponse<String> r = query(FIXTURE_QUERY);
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode err = JSON.readTree(r.body()).get(0);
    String msg = err.get("message").asText();
    assertThat(msg)
        .matches(
            "(?s)^\\n[^\\n]{40,80}\\n {20}\\^\\nERROR at Row:1:Column:21\\nNo such column"
                + " 'Interval' on entity 'EventLogFile'\\..*");
    assertThat(err.get("errorCode").asText()).isEqualTo("INVALID_FIELD");
    int shortLen = fixture("reconstructed_error_invalid_field_400.json").length();
    assertThat(r.body().length()).isBetween(shortLen - 60, shortLen + 60);
    assertThat(r.body().indexOf("\"errorCode\"")).isLessThan(500);
  }

  @Test
  @DisplayName("SRC-27: optionally a two-element error array (INVALID_FIELD first)")
  void twoElementArray() throws Exception {
    org =
        SimOrg.builder()
            .hourlyAvailable(false)
            .invalidFieldSecondError("MALFORMED_QUERY", "unexpected token: 'Sequence'")
            .start();
    JsonNode body = JSON.readTree(query(FIXTURE_QUERY).body());
    assertThat(body).hasSize(2);
    assertThat(body.get(0).get("errorCode").asText()).isEqualTo("INVALID_FIELD");
    assertThat(body.get(1).get("errorCode").asText()).isEqualTo("MALFORMED_QUERY");
  }

  @Test
  @DisplayName(
      "SRC-28, SRC-29: maintenance pages answer 200 text/html on LogFile downloads, queries and"
          + " ApexLog bodies for a number of requests, then real answers resume")
  void maintenanceByCount() throws Exception {
    org = SimOrg.builder().start();
    Instant t = Instant.parse("2024-06-05T10:00:00Z");
    String file =
        org.addLogFile("Login", "Hourly", t, t.plusSeconds(3600), "\"A\"\n\"1\"\n".getBytes());
    SimApexLog log = org.apexLogs().add("u@x.com", t, "APEX BODY");
    org.faults().add(SimEndpoint.LOGFILE, Fault.maintenancePage().times(2));
    org.faults().add(SimEndpoint.QUERY, Fault.maintenancePage());
    org.apexLogs().failBodies(Fault.maintenancePage().times(2));
    String lf = "/services/data/v60.0/sobjects/EventLogFile/" + file + "/LogFile";
    String body = "/services/data/v60.0/tooling/sobjects/ApexLog/" + log.id() + "/Body";

    for (int i = 0; i < 2; i++) {
      HttpResponse<String> page = get(lf);
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=UTF-8");
      assertThat(page.body()).startsWith("<!DOCTYPE html>").contains("maintenance");
      assertThat(get(body).body()).isEqualTo(Fault.MAINTENANCE_PAGE_HTML);
    }
    assertThat(get(lf).body()).isEqualTo("\"A\"\n\"1\"\n");
    assertThat(get(body).body()).isEqualTo("APEX BODY");
    assertThat(query("SELECT EventType FROM EventLogFile GROUP BY EventType").body())
        .startsWith("<!DOCTYPE html>");
    assertThat(query("SELECT EventType FROM EventLogFile GROUP BY EventType").statusCode())
        .isEqualTo(200);
    assertThat(org.callCount(SimEndpoint.APEXLOG_BODY)).isEqualTo(3);
  }

  @Test
  @DisplayName("SRC-28: a maintenance window ends when the org's clock reaches its deadline")
  void maintenanceByTime() throws Exception {
    Instant start = Instant.parse("2024-06-05T10:00:00Z");
    AtomicReference<Instant> now = new AtomicReference<>(start);
    org = SimOrg.builder().clock(now::get).start();
    SimApexLog log = org.apexLogs().add("u@x.com", start, "APEX BODY");
    org.apexLogs().failBodies(Fault.maintenancePage().untilCleared().until(start.plusSeconds(120)));
    String body = "/services/data/v60.0/tooling/sobjects/ApexLog/" + log.id() + "/Body";

    assertThat(get(body).body()).startsWith("<!DOCTYPE html>");
    now.set(start.plusSeconds(119));
    assertThat(get(body).body()).startsWith("<!DOCTYPE html>");
    now.set(start.plusSeconds(120));
    assertThat(get(body).body()).isEqualTo("APEX BODY");
  }
}
