package io.sf2loki.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The real build version of sf2loki (SPEC CLI-2, OBS-6), read from the Maven-filtered classpath
 * resource {@code sf2loki-version.properties} ({@code version=${project.version}}). The same string
 * is printed by {@code --version} and reported by {@code sf2loki_build_info{version}}.
 */
public final class Version {
  /** Classpath resource holding {@code version=<build version>}. */
  public static final String RESOURCE = "/sf2loki-version.properties";

  private Version() {}

  /**
   * Returns the build version, e.g. {@code 0.1.0-SNAPSHOT}.
   *
   * @throws IllegalStateException if the resource is missing or was not filtered (a packaging bug)
   */
  public static String get() {
    return read(Version.class.getResourceAsStream(RESOURCE));
  }

  static String read(InputStream in) {
    if (in == null) {
      throw new IllegalStateException("build version resource " + RESOURCE + " is missing");
    }
    Properties p = new Properties();
    try (in) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    String v = p.getProperty("version", "").strip();
    if (v.isEmpty() || v.contains("${")) {
      throw new IllegalStateException("build version resource " + RESOURCE + " was not filtered");
    }
    return v;
  }
}
