package io.sf2loki.app.config;

/** An enumerated configuration value with its exact YAML spelling (SPEC §1.3). */
public interface YamlEnum {
  /** The spelling used in YAML, e.g. {@code jwt_bearer}. */
  String yaml();
}
