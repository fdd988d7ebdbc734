package io.sf2loki.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StructuredMetadataExtractorTest {

  @ParameterizedTest(name = "SRC-9 snake form: {0} -> {1}")
  @CsvSource({
    "EventUuid,event_uuid",
    "UserId,user_id",
    "SourceIp,source_ip",
    "USER_ID,user_id",
    "SourceIP,source_ip",
    "HTTPServer,http_server",
    "IPAddress,ip_address",
    "user_id,user_id",
    "Foo_Bar,foo_bar",
    "a1B,a1_b",
    "ABc,a_bc",
    "ABC1,abc1",
    "X,x",
    "getHTTPResponseCode,get_http_response_code",
    "Amount_Owed__c,amount_owed__c"
  })
  void snake(String in, String out) {
    assertThat(StructuredMetadataExtractor.snakeForm(in)).isEqualTo(out);
  }

  @Test
  @DisplayName("SRC-9: exact key wins, else first sorted snake match; level last and overriding")
  void resolution() {
    var ex = new StructuredMetadataExtractor(List.of("user_id", "source_ip", "level", "missing"));
    Map<String, Object> p = new HashMap<>();
    p.put("UserId", "005A");
    p.put("USER_ID", "005B");
    p.put("SourceIp", "1.2.3.4");
    p.put("level", "debug");
    p.put("ERROR_CODE", "E");
    Map<String, String> md = ex.extract(p);
    assertThat(md)
        .containsExactly(
            Map.entry("user_id", "005B"), // "USER_ID" sorts before "UserId"
            Map.entry("source_ip", "1.2.3.4"),
            Map.entry("level", "error"));
    p.put("user_id", 7);
    assertThat(ex.extract(p)).containsEntry("user_id", "7");
  }

  @Test
  @DisplayName("SRC-9: a name resolved to a null value is not stored and not looked up further")
  void nullValues() {
    var ex = new StructuredMetadataExtractor(List.of("user_id", "flag"));
    Map<String, Object> p = new HashMap<>();
    p.put("user_id", null);
    p.put("UserId", "005A");
    p.put("Flag", true);
    assertThat(ex.extract(p))
        .containsExactly(Map.entry("flag", "True"), Map.entry("level", "info"));
  }

  @Test
  @DisplayName("SRC-9: envelope fallback only for names the payload does not resolve")
  void fallback() {
    var ex = new StructuredMetadataExtractor(List.of("replay_id", "schema_id"));
    Map<String, Object> p = new HashMap<>();
    p.put("ReplayId", "fromPayload");
    Map<String, String> md = ex.extract(p, Map.of("replay_id", "AAAB", "schema_id", "S1"));
    assertThat(md).containsEntry("replay_id", "fromPayload").containsEntry("schema_id", "S1");
  }

  @Test
  @DisplayName(
      "SRC-9: cached and compiled resolutions follow key-set changes (drop_field, new keys)")
  void cachingIsTransparent() {
    var ex = new StructuredMetadataExtractor(List.of("user_id", "status"));
    var compiled = ex.compile(List.of("USER_ID", "UserId", "STATUS"));
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("USER_ID", "a");
    row.put("UserId", "b");
    row.put("STATUS", "x");
    for (int i = 0; i < 2; i++) {
      assertThat(ex.extract(row)).isEqualTo(compiled.extract(row));
      assertThat(ex.extract(row)).containsEntry("user_id", "a").containsEntry("status", "x");
    }
    row.remove("USER_ID"); // drop_field
    assertThat(ex.extract(row)).containsEntry("user_id", "b");
    assertThat(compiled.extract(row)).containsEntry("user_id", "b");
    row.put("USER_Id", "c"); // a key outside the compiled set, sorts before "UserId"
    assertThat(ex.extract(row)).containsEntry("user_id", "c");
    assertThat(compiled.extract(row)).containsEntry("user_id", "c");
    Map<String, Object> other = Map.of("user_id", "d");
    assertThat(ex.extract(other)).containsEntry("user_id", "d");
    assertThat(ex.extract(row)).containsEntry("user_id", "c");
  }
}
