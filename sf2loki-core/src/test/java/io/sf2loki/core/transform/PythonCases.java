package io.sf2loki.core.transform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The answers of Python's {@code re.sub}, {@code fnmatch.fnmatchcase} and {@code hashlib} (1.x)
 * recorded by {@code gen_cases.py} in {@code python-cases.json}.
 */
final class PythonCases {
  private PythonCases() {}

  private static JsonNode load() {
    try (InputStream in = PythonCases.class.getResourceAsStream("python-cases.json")) {
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Arguments> sub() {
    List<Arguments> out = new ArrayList<>();
    for (JsonNode n : load().get("sub")) {
      out.add(
          Arguments.of(
              n.get("pattern").asText(),
              n.get("replacement").asText(),
              n.get("input").asText(),
              n.get("output").asText()));
    }
    return out;
  }

  static List<Arguments> glob() {
    List<Arguments> out = new ArrayList<>();
    for (JsonNode n : load().get("glob")) {
      out.add(
          Arguments.of(
              n.get("glob").asText(), n.get("text").asText(), n.get("matches").asBoolean()));
    }
    return out;
  }

  static List<Arguments> hash() {
    List<Arguments> out = new ArrayList<>();
    for (JsonNode n : load().get("hash")) {
      out.add(Arguments.of(n.get("salt").asText(), n.get("text").asText(), n.get("hash").asText()));
    }
    return out;
  }
}
