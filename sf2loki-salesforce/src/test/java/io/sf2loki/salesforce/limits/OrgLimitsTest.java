package io.sf2loki.salesforce.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.salesforce.rest.RestTestSupport;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgLimitsTest {
  private static Map<String, Object> fixture() throws Exception {
    return new ObjectMapper()
        .readValue(
            RestTestSupport.fixture("swiftlysalesforce_limits.json"),
            new TypeReference<LinkedHashMap<String, Object>>() {});
  }

  @Test
  @DisplayName(
      "OBS-12: a real /limits body gives every top-level limit; nested per-app sub-limits are"
          + " ignored")
  void obs12_realBody() throws Exception {
    Map<String, Object> body = fixture();
    OrgLimits limits = OrgLimits.parse(body);
    assertThat(limits.limits()).hasSize(body.size());
    assertThat(limits.dailyApiRequests()).contains(new OrgLimits.Limit(15000, 14953));
    assertThat(limits.limits().get("PermissionSets")).isEqualTo(new OrgLimits.Limit(1500, 1491));
    assertThat(limits.limits()).doesNotContainKeys("CreateCustom", "Dataloader Bulk");
  }

  @Test
  @DisplayName(
      "OBS-12: Max and Remaining must be integer-coercible; other entries are skipped, not fatal")
  void obs12_coercion() throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("Ints", Map.of("Max", 10, "Remaining", 3L));
    body.put("Strings", Map.of("Max", "20", "Remaining", " 7 "));
    body.put("Integral", Map.of("Max", 30.0, "Remaining", new BigDecimal("4")));
    body.put("Fraction", Map.of("Max", 1.5, "Remaining", 1));
    body.put("Text", Map.of("Max", "lots", "Remaining", 1));
    body.put("NoRemaining", Map.of("Max", 5));
    body.put("Bool", Map.of("Max", true, "Remaining", 1));
    body.put("NotAnObject", List.of(1, 2));
    body.put("Scalar", 12);
    OrgLimits limits = OrgLimits.parse(body);
    assertThat(limits.limits())
        .containsOnlyKeys("Ints", "Strings", "Integral")
        .containsEntry("Strings", new OrgLimits.Limit(20, 7))
        .containsEntry("Integral", new OrgLimits.Limit(30, 4));
    assertThat(limits.dailyApiRequests()).isEmpty();
  }

  @Test
  @DisplayName("OBS-12: a body without any usable limit is a named error")
  void obs12_nothingUsable() {
    assertThatThrownBy(() -> OrgLimits.parse(Map.of()))
        .isInstanceOf(LimitsResponseException.class)
        .hasMessageContaining("no entry with integer Max and Remaining");
    assertThatThrownBy(() -> OrgLimits.parse(Map.of("message", "x", "errorCode", "E")))
        .isInstanceOf(LimitsResponseException.class);
  }
}
