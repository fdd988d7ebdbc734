package io.sf2loki.app.statecmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the file-lease document of SPEC HA-9: {@code {"holder": "<id>", "expires_at": "<ISO-8601
 * with offset>", "epoch": <int>}}. A missing file, invalid JSON, a non-object, a missing or
 * ill-typed {@code holder}/{@code expires_at} or an unparseable date is an absent lease; a date
 * without offset is UTC; any other I/O error is {@link UnreadableLeaseException}.
 */
final class FileLeaseInspector implements LeaseInspector {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path path;

  FileLeaseInspector(Path path) {
    this.path = Objects.requireNonNull(path, "path");
  }

  @Override
  public LeaseView read() throws UnreadableLeaseException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      return absent();
    } catch (IOException e) {
      throw new UnreadableLeaseException(
          "cannot read lease file " + path + ": " + e.getMessage(), e);
    }
    JsonNode root;
    try {
      root = JSON.readTree(bytes);
    } catch (IOException e) {
      return absent();
    }
    if (root == null
        || !root.isObject()
        || !root.path("holder").isTextual()
        || !root.path("expires_at").isTextual()) {
      return absent();
    }
    Optional<Instant> expires = parse(root.get("expires_at").textValue());
    if (expires.isEmpty()) {
      return absent();
    }
    return new LeaseView(Optional.of(root.get("holder").textValue()), expires, path.toString());
  }

  private LeaseView absent() {
    return new LeaseView(Optional.empty(), Optional.empty(), path.toString());
  }

  static Optional<Instant> parse(String text) {
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      try {
        return Optional.of(LocalDateTime.parse(text).toInstant(ZoneOffset.UTC));
      } catch (DateTimeParseException e2) {
        return Optional.empty();
      }
    }
  }
}
