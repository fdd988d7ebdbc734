package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** CFG-10, SRC-18: object identifiers that could inject SOQL are refused at load. */
class ObjectNameValidationTest {
  @TempDir Path dir;

  private static String cfg(String key, String value) {
    return """
        salesforce:
          client_id: cid
          username: user@example.com
          private_key: PEMKEY
        sources:
          pubsub:
            enabled: false
          eventlog_objects:
            enabled: true
            objects:
              - name: LoginEvent
                %s: %s
        sink:
          loki:
            url: http://loki:3100/loki/api/v1/push
        """
        .formatted(key, value);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"Login'Event\"",
        "\"LoginEvent WHERE Id != null\"",
        "\"LoginEvent' OR Id != '\"",
        "\"LoginEvent--\""
      })
  @DisplayName(
      "CFG-10, SRC-18: an object name with a quote or SOQL injection names the dotted path")
  void objectNameInjection(String bad) {
    String yaml = cfg("big_object", "true").replace("name: LoginEvent", "name: " + bad);
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("sources.eventlog_objects.objects.0.name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"timestamp_field", "tiebreak_field"})
  @DisplayName("CFG-10: timestamp_field and tiebreak_field must be SOQL identifiers")
  void fieldInjection(String key) {
    assertThatThrownBy(() -> load(dir, cfg(key, "\"EventDate' OR '1'='1\"")))
        .hasMessageContaining("sources.eventlog_objects.objects.0." + key);
  }

  @ParameterizedTest
  @ValueSource(strings = {"LoginEvent", "loginevent"})
  @DisplayName(
      "OBJ-2: a duplicate object name (SOQL names are case-insensitive) is refused at load,"
          + " not by an uncaught exception at run time")
  void duplicateObjectName(String second) {
    String yaml =
        cfg("big_object", "true")
            .replace(
                "    big_object: true\n", "    big_object: true\n      - name: " + second + "\n");
    assertThatThrownBy(() -> load(dir, yaml))
        .hasMessageContaining("sources.eventlog_objects.objects.1.name")
        .hasMessageContaining("duplicate object name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"big_object"})
  void validLoads(String key) {
    assertThat(
            load(dir, cfg(key, "true"))
                .orgs()
                .getFirst()
                .sources()
                .eventlogObjects()
                .settings()
                .objects())
        .hasSize(1);
  }
}
