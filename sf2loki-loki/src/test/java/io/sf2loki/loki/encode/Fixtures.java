package io.sf2loki.loki.encode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Loads the shared Loki fixtures from test resources. */
public final class Fixtures {
  private Fixtures() {}

  public static byte[] resource(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/loki/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The batch described by push_request.json, in file order. */
  public static List<LogEntry> pushRequestBatch() {
    try {
      JsonNode root = new ObjectMapper().readTree(resource("push_request.json"));
      List<LogEntry> out = new ArrayList<>();
      for (JsonNode stream : root.get("streams")) {
        Map<String, String> labels = new LinkedHashMap<>();
        stream
            .get("stream")
            .properties()
            .forEach(p -> labels.put(p.getKey(), p.getValue().asText()));
        for (JsonNode v : stream.get("values")) {
          long ns = Long.parseLong(v.get(0).asText());
          Map<String, String> md = new LinkedHashMap<>();
          if (v.size() > 2) {
            v.get(2).properties().forEach(p -> md.put(p.getKey(), p.getValue().asText()));
          }
          out.add(
              LogEntry.of(
                  Instant.ofEpochSecond(0, ns),
                  labels,
                  v.get(1).asText(),
                  md,
                  new CheckpointToken("k", "v")));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
