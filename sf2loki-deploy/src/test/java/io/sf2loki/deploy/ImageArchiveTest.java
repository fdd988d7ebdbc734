package io.sf2loki.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OCI image archive's configuration and file ownership (SPEC DEP-2). */
class ImageArchiveTest {
  @TempDir static Path tmp;
  static ImageArchive image;

  @BeforeAll
  static void open() throws Exception {
    image = ImageArchive.open(tmp);
  }

  @Test
  @DisplayName("DEP-2: user 10001:10001, entrypoint the launcher, default --config, port 8080")
  void dep2_runConfig() {
    JsonNode c = image.config.get("config");
    assertThat(c.get("User").asText()).isEqualTo("10001:10001");
    assertThat(strings(c.get("Entrypoint"))).containsExactly("/opt/sf2loki/bin/sf2loki");
    assertThat(strings(c.get("Cmd"))).containsExactly("--config", "/etc/sf2loki/config.yaml");
    assertThat(c.get("ExposedPorts").fieldNames()).toIterable().containsExactly("8080/tcp");
    assertThat(image.config.get("os").asText()).isEqualTo("linux");
    assertThat(strings(image.manifest.get("RepoTags")))
        .containsExactly("ghcr.io/rknightion/sf2loki:" + Repo.version());
  }

  @Test
  @DisplayName("DEP-2: container JVM flags and /tmp for native libraries in the environment")
  void dep2_env() {
    Map<String, String> env = image.env();
    assertThat(env).containsKey("JAVA_HOME").containsEntry("HOME", "/tmp");
    assertThat(env.get("SF2LOKI_JVM_DEFAULTS").split(" "))
        .contains(
            "-XX:MaxRAMPercentage=75",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djava.io.tmpdir=/tmp",
            "-Dorg.xerial.snappy.tempdir=/tmp",
            "-Dio.grpc.netty.shaded.io.netty.native.workdir=/tmp");
  }

  @Test
  @DisplayName("DEP-2: OCI labels: version, source, licence, title")
  void dep2_labels() {
    JsonNode labels = image.config.at("/config/Labels");
    assertThat(labels.get("org.opencontainers.image.version").asText()).isEqualTo(Repo.version());
    assertThat(labels.get("org.opencontainers.image.source").asText())
        .isEqualTo("https://github.com/rknightion/sf2loki");
    assertThat(labels.get("org.opencontainers.image.licenses").asText()).isEqualTo("Apache-2.0");
    assertThat(labels.get("org.opencontainers.image.title").asText()).isEqualTo("sf2loki");
    assertThat(labels.get("org.opencontainers.image.base.name").asText()).isNotBlank();
  }

  @Test
  @DisplayName(
      "DEP-12: the base is named in the labels: the local jlink base here, else the digest-pinned Temurin JRE")
  void dep12_baseNamed() throws Exception {
    String pom = java.nio.file.Files.readString(Repo.root().resolve("sf2loki-app/pom.xml"));
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "<sf2loki.image.temurin>(eclipse-temurin:25-jre@sha256:[0-9a-f]{64})</sf2loki.image.temurin>")
            .matcher(pom);
    assertThat(m.find()).as("release base pinned by digest in sf2loki-app/pom.xml").isTrue();
    String base = image.config.at("/config/Labels/org.opencontainers.image.base.name").asText();
    if (image.config.at("/config/Labels/io.sf2loki.base").isMissingNode()) {
      assertThat(base).isEqualTo(m.group(1));
    } else {
      assertThat(base).startsWith("sf2loki-local-base").contains("not a release base");
      assertThat(image.env()).containsEntry("JAVA_HOME", "/opt/java/openjdk");
    }
  }

  @Test
  @DisplayName(
      "DEP-2: application files are root-owned and not writable by the runtime user; the state dir is")
  void dep2_ownership() throws Exception {
    List<String> app = new ArrayList<>();
    // layer 0 is the base; the rest are Jib's (dependencies, resources, classes, extra directories)
    for (Path layer : image.layers().subList(1, image.layers().size())) {
      app.addAll(image.listing(layer, tmp));
    }
    assertThat(app)
        .anyMatch(
            l ->
                l.endsWith(" ./opt/sf2loki/bin/sf2loki")
                    || l.endsWith(" /opt/sf2loki/bin/sf2loki")
                    || l.endsWith("opt/sf2loki/bin/sf2loki"));
    for (String line : app) {
      String[] f = line.split("\\s+");
      String mode = f[0];
      String owner = f[1];
      String name = f[f.length - 1];
      assertThat(owner).as(line).isEqualTo("0/0");
      if (name.contains("opt/sf2loki")) {
        assertThat(mode.charAt(5)).as("group write: %s", line).isEqualTo('-');
        assertThat(mode.charAt(8)).as("other write: %s", line).isEqualTo('-');
      }
      if (name.endsWith("opt/sf2loki/bin/sf2loki")) {
        assertThat(mode).isEqualTo("-rwxr-xr-x");
      }
      if (name.matches(".*var/lib/sf2loki/?")) {
        assertThat(mode).isEqualTo("drwxrwxrwx");
      }
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
