package io.sf2loki.app.backfill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A backfill cursor (SPEC BF-2, BF-5, BF-10; SRC-15 table): {@code {"done_ids": [<fileId>, …],
 * "last_created": "<CreatedDate>"}}, where {@code done_ids} are the files already pushed whose
 * CreatedDate equals {@code last_created} (raw, as Salesforce sent it).
 *
 * @param lastCreated the CreatedDate of the newest pushed file
 * @param doneIds pushed files at exactly {@code lastCreated}
 */
public record BackfillCursor(String lastCreated, List<String> doneIds) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public BackfillCursor {
    Objects.requireNonNull(lastCreated, "lastCreated");
    doneIds = List.copyOf(doneIds);
  }

  /**
   * BF-10: the cursor after file {@code id} with CreatedDate {@code created} was pushed: the same
   * CreatedDate appends the Id, a newer one resets the list to it.
   */
  public BackfillCursor advance(String id, String created) {
    if (created.equals(lastCreated)) {
      if (doneIds.contains(id)) {
        return this;
      }
      List<String> ids = new ArrayList<>(doneIds);
      ids.add(id);
      return new BackfillCursor(created, ids);
    }
    return new BackfillCursor(created, List.of(id));
  }

  /** Whether a listed file is already done (BF-5). */
  public boolean isDone(String id, String created) {
    return created != null && created.equals(lastCreated) && doneIds.contains(id);
  }

  /** The stored JSON (key order {@code done_ids}, {@code last_created}). */
  public String toJson() {
    ObjectNode o = JSON.createObjectNode();
    ArrayNode ids = o.putArray("done_ids");
    doneIds.forEach(ids::add);
    o.put("last_created", lastCreated);
    return o.toString();
  }

  /** Parses a stored value; empty when it is not a backfill cursor. */
  public static Optional<BackfillCursor> parse(String value) {
    try {
      JsonNode n = JSON.readTree(value);
      if (n == null || !n.isObject() || !n.path("last_created").isTextual()) {
        return Optional.empty();
      }
      List<String> ids = new ArrayList<>();
      for (JsonNode id : n.path("done_ids")) {
        if (!id.isTextual()) {
          return Optional.empty();
        }
        ids.add(id.asText());
      }
      return Optional.of(new BackfillCursor(n.get("last_created").asText(), ids));
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }
}
