package io.sf2loki.app.health;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The {@code /statusz} JSON schema (test resource {@code statusz.schema.json}, draft 2020-12). */
public final class StatuszSchema {
  private static final Schema SCHEMA =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
          .getSchema(text(), InputFormat.JSON);

  private StatuszSchema() {}

  /** The schema's errors for the JSON text {@code json} (empty when valid). */
  public static List<Error> errors(String json) {
    try {
      return SCHEMA.validate(new ObjectMapper().readTree(json));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String text() {
    try (var in = StatuszSchema.class.getResourceAsStream("statusz.schema.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
