package io.sf2loki.app.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Shared helpers for configuration tests. */
final class ConfigTestSupport {
  static final String MINIMAL =
      """
      salesforce:
        client_id: cid
        username: user@example.com
        private_key: PEMKEY
      sources:
        pubsub:
          topics: [/event/LoginEventStream]
      sink:
        loki:
          url: http://loki:3100/loki/api/v1/push
      """;

  private ConfigTestSupport() {}

  static Path write(Path dir, String yaml) {
    try {
      Path p = Files.createTempFile(dir, "cfg", ".yaml");
      Files.writeString(p, yaml);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Sf2lokiConfig load(Path dir, String yaml) {
    return load(dir, yaml, Map.of());
  }

  static Sf2lokiConfig load(Path dir, String yaml, Map<String, String> env) {
    return new ConfigLoader().load(write(dir, yaml), env);
  }
}
