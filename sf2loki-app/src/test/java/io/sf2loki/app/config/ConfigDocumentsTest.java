package io.sf2loki.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.sf2loki.app.run.AppCommandActions;
import io.sf2loki.core.settings.Setting;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated example, reference and schema (SPEC CFG-26, CFG-27, CLI-6). */
class ConfigDocumentsTest {
  private static final Path COMMITTED_REFERENCE = Path.of("..", "docs", "config-reference.md");

  private static Schema schema() {
    return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
        .getSchema(ConfigSchema.render(), InputFormat.JSON);
  }

  private static JsonNode example() throws Exception {
    return ConfigLoader.parseYaml(ConfigExample.render());
  }

  @Test
  @DisplayName("CFG-27: the committed docs/config-reference.md equals `config reference` (drift)")
  void referenceHasNotDrifted() throws Exception {
    if (Boolean.getBoolean("sf2loki.regenerateDocs")) {
      Files.writeString(COMMITTED_REFERENCE, ConfigReference.render(), StandardCharsets.UTF_8);
    }
    String committed =
        Files.exists(COMMITTED_REFERENCE)
            ? Files.readString(COMMITTED_REFERENCE, StandardCharsets.UTF_8)
            : "";
    assertThat(committed)
        .as(
            "docs/config-reference.md differs from the configuration model; regenerate it with"
                + " `%s` (or run this test with -Dsf2loki.regenerateDocs=true) and commit it",
            ConfigReference.REGENERATE)
        .isEqualTo(ConfigReference.render());
  }

  @Test
  @DisplayName("CFG-26: the reference has a row for every key of the model")
  void referenceListsEveryKey() {
    String reference = ConfigReference.render();
    List<String> missing = new ArrayList<>();
    walk(
        ConfigModel.ROOT,
        s -> {
          if (!reference.contains("| `" + s.key() + "` |")) {
            missing.add(s.key());
          }
        });
    assertThat(missing).isEmpty();
    assertThat(reference).contains("## `sources.eventlog_objects.objects[]`");
  }

  @Test
  @DisplayName("CFG-26: the JSON Schema (draft 2020-12) accepts the generated example")
  void schemaAcceptsExample() throws Exception {
    List<Error> errors = schema().validate(example());
    assertThat(errors).isEmpty();
  }

  @Test
  @DisplayName("CFG-26: the JSON Schema accepts the shipped config/sf2loki.example.yaml")
  void schemaAcceptsDistributionExample() throws Exception {
    Path shipped = Path.of("src", "dist", "config", "sf2loki.example.yaml");
    JsonNode tree = ConfigLoader.parseYaml(Files.readString(shipped, StandardCharsets.UTF_8));
    assertThat(schema().validate(tree)).isEmpty();
  }

  @Test
  @DisplayName(
      "CFG-4, CFG-26, CFG-39: the JSON Schema closes every object: an unknown key is rejected at"
          + " the root and nested")
  void schemaRejectsUnknownKey() throws Exception {
    ObjectNode root = (ObjectNode) example();
    root.put("sinks", "typo");
    ((ObjectNode) root.get("sink").get("loki").get("batch")).put("max_entry", 5);
    List<Error> errors = schema().validate(root);
    assertThat(errors.toString()).contains("sinks").contains("max_entry");
  }

  @Test
  @DisplayName("CFG-26: the JSON Schema rejects a wrong type and an out-of-bounds number")
  void schemaRejectsWrongType() throws Exception {
    ObjectNode root = (ObjectNode) example();
    ObjectNode loki = (ObjectNode) root.get("sink").get("loki");
    ((ObjectNode) loki.get("batch")).putArray("max_entries").add(1);
    ((ObjectNode) root.get("sources").get("pubsub")).put("enabled", "maybe");
    ((ObjectNode) root.get("sources").get("pubsub")).put("default_num_requested", 500);
    loki.put("encoding", "xml");
    List<Error> errors = schema().validate(root);
    assertThat(errors.toString())
        .contains("max_entries")
        .contains("enabled")
        .contains("default_num_requested")
        .contains("encoding");
  }

  @Test
  @DisplayName(
      "CFG-2, CFG-3, CFG-39: the JSON Schema accepts string numbers, yes/no and ${VAR} values")
  void schemaAcceptsLoaderSpellings() throws Exception {
    ObjectNode root = (ObjectNode) example();
    ObjectNode batch = (ObjectNode) root.get("sink").get("loki").get("batch");
    batch.put("max_entries", "500");
    batch.put("flush_interval", "1h30m");
    batch.put("max_bytes", "${BATCH_BYTES}");
    ((ObjectNode) root.get("sources").get("pubsub")).put("tls", "Yes");
    assertThat(schema().validate(root)).isEmpty();
  }

  @Test
  @DisplayName("CLI-4, CFG-26: the generated example passes `run --check` once the key is supplied")
  void examplePassesCheck(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(file, ConfigExample.render(), StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    // CFG-1: the environment overrides the example's private_key_file with an inline key (CFG-7)
    Map<String, String> env = Map.of("SF2LOKI_SALESFORCE__PRIVATE_KEY", rsaPem());
    int rc =
        new AppCommandActions(
                env,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))
            .run(file, true);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(rc).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("config check OK");
  }

  @Test
  @DisplayName("CFG-4: the binder accepts every key of the model and binds the example's values")
  void binderKnowsEveryModelKey(@TempDir Path dir) throws Exception {
    String yaml =
        ConfigExample.render()
            .replace("private_key_file: /etc/sf2loki/secrets/private_key", "private_key: x");
    Sf2lokiConfig cfg = ConfigTestSupport.load(dir, yaml);
    assertThat((long) cfg.pipeline().maxEntries()).isEqualTo(SinkKeys.MAX_ENTRIES.longDefault());
    assertThat(cfg.orgs().get(0).sources().pubsub().topics())
        .containsExactly("/event/LoginEventStream");
  }

  private static void walk(Group g, java.util.function.Consumer<Setting> each) {
    g.settings().forEach(each);
    if (g != ConfigModel.ORGS) {
      g.children().forEach(c -> walk(c, each));
    }
  }

  private static String rsaPem() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(g.generateKeyPair().getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }
}
