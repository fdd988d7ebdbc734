package io.sf2loki.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The JSON Schema of {@code config schema} and the loader agree on the common keys (CFG-39): what
 * the loader refuses the schema refuses too, and the loader's other spellings stay accepted.
 */
class ConfigSchemaAgreementTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Schema SCHEMA =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
          .getSchema(ConfigSchema.render(), InputFormat.JSON);

  @TempDir Path dir;

  /** MINIMAL with the JSON {@code value} at the dotted {@code path} (objects created as needed). */
  private static ObjectNode with(String path, String value) throws Exception {
    ObjectNode root = (ObjectNode) ConfigLoader.parseYaml(ConfigTestSupport.MINIMAL);
    String[] parts = path.split("\\.");
    ObjectNode o = root;
    for (int i = 0; i < parts.length - 1; i++) {
      o = o.has(parts[i]) ? (ObjectNode) o.get(parts[i]) : o.putObject(parts[i]);
    }
    o.set(parts[parts.length - 1], JSON.readTree(value));
    return root;
  }

  private Sf2lokiConfig load(JsonNode tree) throws Exception {
    return ConfigTestSupport.load(
        dir, YAML.writeValueAsString(tree), Map.of("API_VERSION", "61.0"));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @DisplayName("CFG-39: an invalid value the loader refuses is refused by the schema too")
  @CsvSource(
      delimiter = '|',
      value = {
        "sources.pubsub.sample                    | {\"*\": 5}",
        "sources.pubsub.sample                    | {\"*\": \"0\"}",
        "sources.pubsub.sample                    | {\"*\": null}",
        "sources.pubsub.default_num_requested     | \"101\"",
        "sources.pubsub.default_num_requested     | \"0\"",
        "sink.loki.batch.max_entries              | \"0\"",
        "sink.loki.batch.max_bytes                | \"1023\"",
        "sink.loki.batch.queue_maxsize            | \"99\"",
        "sink.loki.batch.queue_max_bytes          | \"-1\"",
        "sink.loki.batch.flush_interval           | \"0s\"",
        "sink.loki.batch.flush_interval           | \"00:00:00\"",
        "sink.loki.batch.flush_interval           | -3",
        "sink.loki.egress.max_bytes_per_second    | \"-1\"",
        "sources.eventlogfile.page_size           | \"50001\"",
        "sources.eventlogfile.concurrency         | \"0\"",
        "sources.apexlog.max_body_bytes           | \"0\"",
        "salesforce.limits                        | {\"enabled\": true, \"reserve_percent\": \"100.5\"}",
        "sources.eventlog_objects.objects         | [{\"name\": \"Bad-Name\", \"timestamp_field\": \"CreatedDate\"}]",
        "sources.eventlog_objects.objects         | [{\"name\": \"Ok\", \"timestamp_field\": \"CreatedDate\", \"sample\": 2}]",
        "sources.eventlogfile.event_types         | [\"Login-Event\"]",
        "sources.eventlogfile.event_types         | [{\"name\": \"Login Event\"}]",
        "salesforce.api_version                   | \"v60\"",
        "salesforce.org_id                        | \"00D123\"",
        "salesforce.username                      | \"bad user!\"",
        "sink.loki.labels                         | {\"source\": \"x\"}",
        "sink.loki.labels                         | {\"team\": \"x\"}",
        "sink.loki.encoding                       | \"xml\"",
        "sink.loki.batch.max_entry                | 5",
        "sources.eventlogfile.event_types         | [\"Login\", 7]",
        "salesforce.client_id                     | \"\"",
        "salesforce.client_id                     | null",
        "sink.loki.url                            | \"\"",
      })
  void cfg39_bothRefuse(String path, String value) throws Exception {
    ObjectNode tree = with(path.strip(), value.strip());
    assertThatThrownBy(() -> load(tree)).as("loader").isInstanceOf(ConfigException.class);
    assertThat(SCHEMA.validate(tree)).as("schema errors for " + tree).isNotEmpty();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @DisplayName(
      "CFG-2, CFG-3, CFG-39: spellings the loader accepts (numbers as strings, leading + or"
          + " zeros, ${NAME}) stay valid in the schema")
  @CsvSource(
      delimiter = '|',
      value = {
        "sources.pubsub.sample                    | {\"*\": \"0.5\", \"/event/X\": \".25\"}",
        "sources.pubsub.sample                    | {\"*\": \"1.0\"}",
        "sources.pubsub.sample                    | {\"*\": 1}",
        "sources.pubsub.default_num_requested     | \"+100\"",
        "sources.pubsub.default_num_requested     | \" 007 \"",
        "sink.loki.batch.max_entries              | \"1\"",
        "sink.loki.batch.max_bytes                | \"1024\"",
        "sink.loki.batch.max_bytes                | \"99999999\"",
        "sink.loki.batch.queue_maxsize            | \"100\"",
        "sink.loki.batch.max_line_bytes           | \"-1\"",
        "sink.loki.batch.flush_interval           | \"1h30m\"",
        "sink.loki.batch.flush_interval           | \"0.5s\"",
        "sources.eventlogfile.page_size           | \"50000\"",
        "sources.eventlogfile.page_size           | \"999\"",
        "sink.loki.egress.max_bytes_per_second    | \"0\"",
        "sink.loki.egress.max_bytes_per_second    | \"1.5e3\"",
        "salesforce.limits                        | {\"enabled\": true, \"reserve_percent\": \"100\"}",
        "salesforce.limits                        | {\"enabled\": true, \"reserve_percent\": \"12.5\"}",
        "salesforce.api_version                   | \"${API_VERSION}\"",
        "salesforce.api_version                   | 61.0",
        "salesforce.org_id                        | \"00D000000000001AAA\"",
        "sources.eventlogfile.event_types         | [\"Login\", {\"name\": \"*\"}]",
        "sink.loki.labels                         | {\"job\": \"sf\", \"environment\": \"prod\"}",
        "salesforce.client_id                     | \"${API_VERSION}\"",
      })
  void cfg39_bothAccept(String path, String value) throws Exception {
    ObjectNode tree = with(path.strip(), value.strip());
    load(tree);
    assertThat(SCHEMA.validate(tree)).as("schema errors for " + tree).isEmpty();
  }

  @Test
  @DisplayName("CFG-17: a number among event_types is one problem naming the item")
  void cfg17_numberEventTypeIsOneProblem() throws Exception {
    ObjectNode tree =
        with("sources.eventlogfile", "{\"enabled\": true, \"event_types\": [\"Login\", 7]}");
    assertThatThrownBy(() -> load(tree))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "sources.eventlogfile.event_types.1: expected an event type name or a mapping with"
                + " name, got a number '7'")
        .hasMessageNotContaining("event_types.1.name");
  }

  @Test
  @DisplayName(
      "CFG-47, PS-10: a blank client_id and a Pub/Sub topic without a name are configuration"
          + " errors naming the path")
  void cfg47_blankClientIdAndNamelessTopic() throws Exception {
    ObjectNode blank = with("salesforce.client_id", "\"   \"");
    assertThatThrownBy(() -> load(blank))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("salesforce.client_id: must not be blank");
    ObjectNode topic = with("sources.pubsub.topics", "[\"/event/LoginEventStream\", \"\", \" \"]");
    assertThatThrownBy(() -> load(topic))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sources.pubsub.topics.1: a topic needs a name")
        .hasMessageContaining("sources.pubsub.topics.2: a topic needs a name");
  }

  @ParameterizedTest(name = "orgs.0.name = {0}")
  @DisplayName("CFG-10, CFG-39: an org name outside ^[A-Za-z0-9_-]+$ is refused by both")
  @CsvSource({"'\"bad name\"'", "'\"a.b\"'"})
  void cfg39_orgNamePattern(String name) throws Exception {
    ObjectNode root = (ObjectNode) ConfigLoader.parseYaml(ConfigTestSupport.MINIMAL);
    JsonNode sf = root.remove("salesforce");
    root.remove("sources");
    ObjectNode org = root.putArray("orgs").addObject();
    org.set("name", JSON.readTree(name));
    org.set("salesforce", sf);
    org.putObject("sources").putObject("pubsub").putArray("topics").add("*");
    assertThatThrownBy(() -> load(root)).isInstanceOf(ConfigException.class);
    assertThat(SCHEMA.validate(root)).isNotEmpty();
    org.put("name", "eu-prod_1");
    load(root);
    assertThat(SCHEMA.validate(root)).isEmpty();
  }
}
