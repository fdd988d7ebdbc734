package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.app.testing.RepoRoot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every LogQL query of the pack (Loki dashboard panels and Loki ruler rules) reads only fields that
 * the lines of the source it selects carry (SPEC DEP-8): the fields of an EventLogFile type (the
 * simulator's type catalogue, plus documented types in {@code fixtures/elf}), of a Pub/Sub event
 * (its Avro schema) or of a SOQL object record (a real response in {@code fixtures/rest}).
 */
class MonitoringLogFieldsTest {
  private static final Set<String> STREAM_LABELS =
      Set.of(
          "job", "service_name", "environment", "sf_org_id", "source", "event_type", "__error__");
  private static final Pattern SELECTOR = Pattern.compile("\\{(job=[^{}]*)}");
  private static final Pattern EVENT_TYPE = Pattern.compile("event_type=(~?)\"([^\"]+)\"");
  private static final Pattern JSON =
      Pattern.compile("\\| json(?<params>( [A-Za-z_]\\w*=\"[^\"]+\",?)*)");
  private static final Pattern BARE_JSON = Pattern.compile("\\| json(?! \\w+=)");
  private static final Pattern PARAM = Pattern.compile("([A-Za-z_]\\w*)=\"([^\"]+)\"");
  private static final Pattern BY = Pattern.compile("\\bby \\(([^)]*)\\)");
  private static final Pattern UNWRAP = Pattern.compile("\\| unwrap (\\w+)");
  private static final Pattern FILTER = Pattern.compile("\\| (\\w+) (?:=~|!~|!=|==|=|>=|<=|>|<) ");
  private final MonitoringPack pack = new MonitoringPack();

  /** event_type → the field names its lines carry. */
  static Map<String, Set<String>> lineFields() throws IOException {
    Map<String, Set<String>> out = new HashMap<>();
    try (InputStream in =
        MonitoringLogFieldsTest.class.getResourceAsStream("/io/sf2loki/sim/elf_event_types.json")) {
      JsonNode types = MonitoringPack.JSON.readTree(in).path("event_types");
      types
          .fields()
          .forEachRemaining(e -> out.put(e.getKey(), names(e.getValue().path("columns"))));
    }
    Path fixtures = RepoRoot.find().resolve("sf2loki-app/src/test/resources/fixtures");
    for (Path f : list(fixtures.resolve("elf"))) {
      JsonNode d = MonitoringPack.read(MonitoringPack.JSON, f);
      out.put(d.path("event_type").asText(), names(d.path("columns")));
    }
    for (Path f : list(fixtures.resolve("avro"))) {
      JsonNode schema = MonitoringPack.read(MonitoringPack.JSON, f);
      out.put(schema.path("name").asText(), names(schema.path("fields")));
    }
    for (Path f : list(fixtures.resolve("rest"))) {
      JsonNode record = MonitoringPack.read(MonitoringPack.JSON, f).path("records").get(0);
      Set<String> keys = new HashSet<>();
      record.fieldNames().forEachRemaining(keys::add);
      out.put(record.path("attributes").path("type").asText(), keys);
    }
    return out;
  }

  private static Set<String> names(JsonNode array) {
    Set<String> out = new HashSet<>();
    array.forEach(c -> out.add(c.path("name").asText()));
    return out;
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  /** Every LogQL query: {where, expr}. */
  private List<String[]> logQueries() {
    List<String[]> out = new ArrayList<>();
    pack.panelQueries().stream()
        .filter(q -> q.datasourceUid().equals("${ds_loki}"))
        .forEach(q -> out.add(new String[] {q.dashboard() + " / " + q.panel(), q.expr()}));
    pack.lokiRules().forEach(r -> out.add(new String[] {"loki rule " + r.name(), r.expr()}));
    return out;
  }

  @Test
  @DisplayName(
      "DEP-8: every LogQL query extracts by name (| json F=\"F\") only fields present in the lines"
          + " of every event type it selects, and groups, filters or unwraps only stream labels and"
          + " extracted fields")
  void dep8_logQueriesUseOnlyFieldsOfTheirSource() throws IOException {
    Map<String, Set<String>> fields = lineFields();
    assertThat(fields)
        .containsKeys("Login", "ApexCallout", "LoginEventStream", "LoginHistory", "ApiTotalUsage");
    List<String[]> queries = logQueries();
    assertThat(queries).hasSizeGreaterThanOrEqualTo(40);
    long extracted = 0;
    for (String[] q : queries) {
      assertThat(problems(q[1], fields)).as("%s: %s", q[0], q[1]).isEmpty();
      Matcher j = JSON.matcher(q[1]);
      while (j.find()) {
        extracted += PARAM.matcher(j.group("params")).results().count();
      }
    }
    assertThat(extracted).as("fields extracted and checked").isGreaterThanOrEqualTo(40);
  }

  @Test
  @DisplayName(
      "DEP-8: the field check rejects a field the source lacks (Country on ELF Login), an unwrap"
          + " of a field never extracted, a bare | json and a field query without event_type")
  void dep8_fieldCheckRejectsMisuse() throws IOException {
    Map<String, Set<String>> fields = lineFields();
    String elfLogin = "{job=\"sf2loki\", source=\"eventlogfile\", event_type=\"Login\"}";
    assertThat(problems(elfLogin + " | json Country=\"Country\" [5m]", fields)).isNotEmpty();
    assertThat(problems(elfLogin + " | json | LOGIN_STATUS != \"x\" [5m]", fields)).isNotEmpty();
    assertThat(problems(elfLogin + " | json A=\"USER_NAME\" | unwrap RUN_TIME [5m]", fields))
        .isNotEmpty();
    assertThat(problems("{job=\"sf2loki\"} | json A=\"USER_NAME\" [5m]", fields)).isNotEmpty();
    String both = "{job=\"sf2loki\", event_type=~\"LoginEventStream|Login\"}";
    assertThat(problems(both + " | json C=\"Country\" [5m]", fields))
        .as("Country is in LoginEventStream lines but not in ELF Login lines")
        .isNotEmpty();
    assertThat(
            problems(
                "sum by (LOGIN_STATUS) (count_over_time("
                    + elfLogin
                    + " | json LOGIN_STATUS=\"LOGIN_STATUS\" | __error__=\"\" [5m]))",
                fields))
        .isEmpty();
  }

  /** What is wrong with one LogQL query's use of line fields; empty when nothing. */
  static List<String> problems(String expr, Map<String, Set<String>> fields) {
    List<String> out = new ArrayList<>();
    if (BARE_JSON.matcher(expr).find()) {
      out.add("| json without named fields");
    }
    Set<String> extracted = new HashSet<>();
    Matcher j = JSON.matcher(expr);
    while (j.find()) {
      Set<String> types = selectedTypes(expr);
      if (types.isEmpty()) {
        out.add("reads fields without selecting an event_type");
      }
      Matcher p = PARAM.matcher(j.group("params"));
      while (p.find()) {
        extracted.add(p.group(1));
        for (String type : types) {
          if (!fields.containsKey(type)) {
            out.add("no field list for event type " + type);
          } else if (!fields.get(type).contains(p.group(2))) {
            out.add("lines of " + type + " carry no " + p.group(2));
          }
        }
      }
    }
    Set<String> allowed = new HashSet<>(STREAM_LABELS);
    allowed.addAll(extracted);
    for (Pattern used : List.of(BY, UNWRAP, FILTER)) {
      Matcher m = used.matcher(expr);
      while (m.find()) {
        for (String label : m.group(1).split(",")) {
          if (!allowed.contains(label.strip())) {
            out.add("uses " + label.strip() + ", neither a stream label nor extracted");
          }
        }
      }
    }
    return out;
  }

  /** The event types the selectors of {@code expr} name (= or =~ alternatives). */
  private static Set<String> selectedTypes(String expr) {
    Set<String> out = new HashSet<>();
    Matcher s = SELECTOR.matcher(expr);
    while (s.find()) {
      Matcher t = EVENT_TYPE.matcher(s.group(1));
      if (t.find()) {
        out.addAll(
            t.group(1).isEmpty() ? List.of(t.group(2)) : Arrays.asList(t.group(2).split("\\|")));
      }
    }
    return out;
  }
}
