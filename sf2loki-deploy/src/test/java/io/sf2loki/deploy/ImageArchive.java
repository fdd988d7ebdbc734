package io.sf2loki.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * The image archive {@code sf2loki-app/target/sf2loki-image.tar} written by {@code -Pimage} (Jib
 * {@code buildTar}, docker-archive layout: {@code manifest.json}, the config JSON, gzipped layers),
 * unpacked with the system {@code tar}. Absent archive: the test is skipped, or fails when {@code
 * -Dsf2loki.image.required=true} (as {@code .ci/run} passes after building the image).
 */
final class ImageArchive {
  private static final ObjectMapper JSON = new ObjectMapper();

  final Path dir;
  final JsonNode manifest;
  final JsonNode config;

  private ImageArchive(Path dir, JsonNode manifest, JsonNode config) {
    this.dir = dir;
    this.manifest = manifest;
    this.config = config;
  }

  static Path path() {
    return Repo.appTarget().resolve("sf2loki-image.tar");
  }

  /** Unpacks the archive into {@code workDir}, or skips/fails the test when it was not built. */
  static ImageArchive open(Path workDir) throws Exception {
    Path tar = path();
    if (!Files.isRegularFile(tar)) {
      assertThat(Boolean.getBoolean("sf2loki.image.required"))
          .as("sf2loki.image.required=true but %s was not built (./mvnw -Pimage package)", tar)
          .isFalse();
      Assumptions.abort("no image archive; build it with ./mvnw -B -DskipTests -Pimage package");
    }
    Path dir = Files.createDirectories(workDir.resolve("image"));
    tar(workDir, "-xf", tar.toString(), "-C", dir.toString());
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile()).get(0);
    JsonNode config = JSON.readTree(dir.resolve(manifest.get("Config").asText()).toFile());
    return new ImageArchive(dir, manifest, config);
  }

  /** The layer files, base first. */
  List<Path> layers() {
    List<Path> out = new ArrayList<>();
    manifest.get("Layers").forEach(l -> out.add(dir.resolve(l.asText())));
    return out;
  }

  /** {@code tar -tv} lines of one layer with numeric owners. */
  List<String> listing(Path layer, Path workDir) throws Exception {
    return tar(workDir, "--numeric-owner", "-tvzf", layer.toString()).lines().toList();
  }

  /** Every layer unpacked in order into {@code rootfs} (the container's file system). */
  Path unpack(Path rootfs, Path workDir) throws Exception {
    Files.createDirectories(rootfs);
    for (Path layer : layers()) {
      tar(workDir, "--numeric-owner", "-xzf", layer.toString(), "-C", rootfs.toString());
    }
    return rootfs;
  }

  /** The config's {@code Env} entries as a map. */
  Map<String, String> env() {
    Map<String, String> env = new java.util.LinkedHashMap<>();
    config
        .at("/config/Env")
        .forEach(
            e -> {
              String[] kv = e.asText().split("=", 2);
              env.put(kv[0], kv[1]);
            });
    return env;
  }

  private static String tar(Path workDir, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("tar", "--warning=no-unknown-keyword"));
    cmd.addAll(List.of(args));
    Launch.Result r = Launch.run(workDir, Map.of("PATH", "/usr/bin:/bin"), cmd, 120);
    assertThat(r.exit()).as("%s: %s", cmd, r.err()).isZero();
    return r.out();
  }
}
