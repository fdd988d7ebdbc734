package io.sf2loki.sim.elf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Column lists per EventLogFile EventType, read from the bundled {@code elf_event_types.json} (see
 * {@code PROVENANCE.md} beside it). For "documented_fields_unordered" types (alphabetical in the
 * source) the usual leading columns ({@code EVENT_TYPE, TIMESTAMP, REQUEST_ID, ORGANIZATION_ID,
 * USER_ID}) are moved to the front; a consumer must map columns by header anyway (ELF-9).
 */
public final class ElfSchemas {
  private static final List<String> LEADING =
      List.of("EVENT_TYPE", "TIMESTAMP", "REQUEST_ID", "ORGANIZATION_ID", "USER_ID");

  /**
   * One CSV column.
   *
   * @param name column name, e.g. {@code CLIENT_IP}
   * @param type EventLogFile field type (String, Id, Number, DateTime, IP, Boolean, Text, ...)
   */
  public record Column(String name, String type) {}

  private final Map<String, List<Column>> byType;

  private ElfSchemas(Map<String, List<Column>> byType) {
    this.byType = byType;
  }

  /** Loads the bundled schema file. */
  public static ElfSchemas bundled() {
    try (InputStream in =
        ElfSchemas.class.getResourceAsStream("/io/sf2loki/sim/elf_event_types.json")) {
      if (in == null) {
        throw new IllegalStateException("elf_event_types.json missing from the classpath");
      }
      JsonNode root = new ObjectMapper().readTree(in);
      Map<String, List<Column>> out = new LinkedHashMap<>();
      root.get("event_types")
          .properties()
          .forEach(
              e -> {
                List<Column> cols = new ArrayList<>();
                for (JsonNode c : e.getValue().get("columns")) {
                  cols.add(new Column(c.get("name").asText(), c.get("type").asText()));
                }
                if ("documented_fields_unordered".equals(e.getValue().path("status").asText())) {
                  List<Column> lead = new ArrayList<>();
                  for (String l : LEADING) {
                    cols.stream().filter(c -> c.name().equals(l)).findFirst().ifPresent(lead::add);
                  }
                  cols.removeAll(lead);
                  lead.addAll(cols);
                  cols = lead;
                }
                out.put(e.getKey(), List.copyOf(cols));
              });
      return new ElfSchemas(Collections.unmodifiableMap(out));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Event types with a known column list, in file order. */
  public List<String> eventTypes() {
    return List.copyOf(byType.keySet());
  }

  /** The columns of {@code eventType}, if known. */
  public Optional<List<Column>> columns(String eventType) {
    return Optional.ofNullable(byType.get(eventType));
  }
}
