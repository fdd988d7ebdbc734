package io.sf2loki.state.lease;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * The lease document of SPEC HA-9 (shared by {@code file_lease}, {@code s3_lease} and {@code
 * gcs_lease}, FEAT-7): {@code {"holder": "<id>", "expires_at": "<ISO-8601 with offset>", "epoch":
 * <int>}}, as sf2loki 1.x wrote it.
 *
 * @param holder the holder id ({@code coordinate.*.holder_id}, default {@code <hostname>-<pid>})
 * @param expiresAt write time + {@code ttl} on the writer's wall clock
 * @param epoch the holder's term epoch (HA-8); 0 when the stored document had none
 */
public record LeaseDocument(String holder, Instant expiresAt, long epoch) {
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  /** Millisecond precision with a numeric offset ({@code +00:00}), readable by 1.x. */
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSxxx");

  public LeaseDocument {
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** Whether the lease is still live at {@code now} (HA-10: expired iff now ≥ expires_at). */
  public boolean liveAt(Instant now) {
    return now.isBefore(expiresAt);
  }

  /** Compact JSON, UTF-8. */
  public byte[] serialise() {
    ObjectNode n = JSON.createObjectNode();
    n.put("holder", holder);
    n.put("expires_at", FORMAT.format(expiresAt.atOffset(ZoneOffset.UTC)));
    n.put("epoch", epoch);
    try {
      return JSON.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialise a lease document", e);
    }
  }

  /**
   * HA-9 reading rules. Invalid JSON, a non-object, a missing or non-string {@code holder} or
   * {@code expires_at}, or an unparseable date make the document <i>absent</i> (claimable); a date
   * without offset is UTC; a missing or non-integer {@code epoch} is 0.
   *
   * @param bytes the stored bytes
   * @return empty when the document counts as absent
   */
  public static Optional<LeaseDocument> parse(byte[] bytes) {
    JsonNode n;
    try {
      n = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
    if (n == null || !n.isObject()) {
      return Optional.empty();
    }
    JsonNode holder = n.get("holder");
    JsonNode expires = n.get("expires_at");
    if (holder == null || !holder.isTextual() || expires == null || !expires.isTextual()) {
      return Optional.empty();
    }
    Optional<Instant> at = parseInstant(expires.asText());
    if (at.isEmpty()) {
      return Optional.empty();
    }
    JsonNode epoch = n.get("epoch");
    long e =
        epoch != null && epoch.isIntegralNumber() && epoch.canConvertToLong() ? epoch.asLong() : 0;
    return Optional.of(new LeaseDocument(holder.asText(), at.get(), e));
  }

  private static Optional<Instant> parseInstant(String text) {
    String t = text.trim();
    try {
      return Optional.of(OffsetDateTime.parse(t).toInstant());
    } catch (DateTimeParseException e) {
      // no offset: UTC (HA-9)
    }
    try {
      return Optional.of(LocalDateTime.parse(t).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
