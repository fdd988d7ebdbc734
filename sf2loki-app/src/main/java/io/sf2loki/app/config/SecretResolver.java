package io.sf2loki.app.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Resolves one secret from its inline key and its {@code <key>_file} path key (SPEC CFG-7): a
 * non-blank inline value wins and the file is not read; otherwise the file is read as UTF-8 and
 * trimmed; blank values count as absent. Error messages name the key and path, never the value.
 */
final class SecretResolver {
  /** Reads a secret file; a test seam for permission failures. */
  @FunctionalInterface
  interface FileReader {
    String read(Path path) throws IOException;
  }

  /** The runtime uid of the container image (DEP). */
  static final int RUNTIME_UID = 10001;

  static final FileReader DEFAULT_READER = p -> Files.readString(p, StandardCharsets.UTF_8);

  private final FileReader reader;

  SecretResolver(FileReader reader) {
    this.reader = reader;
  }

  Optional<Secret> resolve(Section s, String key) {
    String inline = s.string(key, null);
    if (inline != null && !inline.isBlank()) {
      s.string(key + "_file", null); // still type-checked
      return Optional.of(new Secret(inline));
    }
    String file = s.string(key + "_file", null);
    if (file == null || file.isBlank()) {
      return Optional.empty();
    }
    String what = s.path(key);
    Path path = Path.of(file);
    String content;
    try {
      content = reader.read(path);
    } catch (AccessDeniedException e) {
      s.problem(
          key + "_file",
          "cannot read "
              + what
              + " from "
              + path
              + ": permission denied; the process runs as uid "
              + RUNTIME_UID
              + ", so make the file readable by its group (e.g. chmod 0640 and a group the"
              + " process belongs to)");
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      s.problem(key + "_file", "cannot read " + what + " from " + path + ": " + reason(e));
      return Optional.empty();
    }
    String trimmed = content.strip();
    return trimmed.isEmpty() ? Optional.empty() : Optional.of(new Secret(trimmed));
  }

  private static String reason(Exception e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof java.nio.charset.MalformedInputException
        || e instanceof java.nio.charset.CharacterCodingException) {
      return "not valid UTF-8";
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }
}
