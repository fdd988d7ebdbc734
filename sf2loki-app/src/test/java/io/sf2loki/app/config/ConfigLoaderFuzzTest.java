package io.sf2loki.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;

/**
 * Fuzz target: the configuration loader (YAML parse, CFG-3 interpolation, CFG-1 environment merge,
 * binding and validation, CFG-1…CFG-24) on hostile files: YAML bombs (billion laughs aliases), deep
 * nesting, huge scalars, custom tags, duplicate keys, invalid UTF-8. Contract (CFG-4): a file loads
 * or fails with the named {@link ConfigException} (the CLI's exit code 2); nothing else is thrown.
 * Secret files resolve through a fake reader (no file system access beyond the config file); {@code
 * ${HOME}} and {@code ${SECRET}} are defined. Committed inputs replay in the default build
 * (ConfigLoaderFuzzTestInputs/); {@code -Pfuzz} fuzzes.
 */
class ConfigLoaderFuzzTest {
  private static final Map<String, String> ENV =
      Map.of("HOME", "/home/sf2loki", "SECRET", "s3cr3t");
  private static final Path FILE = tempFile();

  private final ConfigLoader loader = new ConfigLoader(path -> "secret-from-" + path.getFileName());

  @DisplayName("CFG-4: a hostile configuration file loads or fails with ConfigException")
  @FuzzTest(maxDuration = "30s")
  void cfg4_fuzzConfigFile(byte[] input) throws IOException {
    Files.write(FILE, input);
    try {
      Sf2lokiConfig config = loader.load(FILE, ENV);
      assertThat(config).isNotNull();
    } catch (ConfigException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  private static Path tempFile() {
    try {
      Path p = Files.createTempFile("sf2loki-config-fuzz", ".yaml");
      p.toFile().deleteOnExit();
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
