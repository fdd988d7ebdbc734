package io.sf2loki.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LevelDeriverTest {

  private static Map<String, Object> m(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @ParameterizedTest(name = "SRC-10 rule 1: {0}={1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "EXCEPTION_MESSAGE|boom|error",
        "EXCEPTION_TYPE|System.NullPointerException|error",
        "ERROR_MESSAGE|x|error",
        "ERROR_CODE|E1|error",
        "ERROR_CODE|  N/A |info",
        "ERROR_CODE|None|info",
        "ERROR_CODE|null|info",
        "ERROR_CODE|NA|info",
        "ERROR_CODE|0|info",
        "ERROR_CODE|'  '|info",
        "ERROR_CODE|''|info",
        "error_code|E1|info"
      })
  void errorFields(String field, String value, String level) {
    assertThat(LevelDeriver.level(m(field, value))).isEqualTo(level);
  }

  @ParameterizedTest(name = "SRC-10 rule 2: STATUS_CODE={0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "500|error",
        "503|error",
        "99999999999999999999|error",
        "404|warn",
        "400|warn",
        "399|info",
        "200|info",
        "100|info",
        "099|info-fallthrough",
        "20x|info-fallthrough",
        "' 404 '|warn",
        "0500|error"
      })
  void statusCode(String code, String expected) {
    String level = LevelDeriver.level(m("STATUS_CODE", code, "REQUEST_STATUS", "bad"));
    assertThat(level).isEqualTo(expected.equals("info-fallthrough") ? "warn" : expected);
  }

  @ParameterizedTest(name = "SRC-10 rule 3: REQUEST_STATUS={0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "S|info",
        "Success|info",
        "SUCCESSFUL|info",
        "ok|info",
        "Complete|info",
        "completed|info",
        "true|info",
        "F|warn",
        "U|warn",
        "failed|warn"
      })
  void requestStatus(String v, String expected) {
    assertThat(LevelDeriver.level(m("REQUEST_STATUS", v, "LOGIN_STATUS", "LOGIN_NO_ERROR")))
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "SRC-10 rule 4: LOGIN_STATUS={0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {"LOGIN_NO_ERROR|info", "login_no_error|info", "LOGIN_ERROR_INVALID_PASSWORD|warn"})
  void loginStatus(String v, String expected) {
    assertThat(LevelDeriver.level(m("LOGIN_STATUS", v, "Status", "ok"))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "SRC-10 rule 5: OPERATION_STATUS={0}, Status={1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "success||info",
        "FAILED||warn",
        "|Success|info",
        "|Failed|warn",
        "none|Failed|warn",
        "ok|Failed|info",
        "||info"
      })
  void operationStatus(String op, String status, String expected) {
    assertThat(LevelDeriver.level(m("OPERATION_STATUS", op, "Status", status))).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  @DisplayName("SRC-10: text forms of non-strings (True counts as success; 500 integer is error)")
  void nonStrings() {
    assertThat(LevelDeriver.level(m("Status", true))).isEqualTo("info");
    assertThat(LevelDeriver.level(m("Status", false))).isEqualTo("warn");
    assertThat(LevelDeriver.level(m("STATUS_CODE", 502))).isEqualTo("error");
    assertThat(LevelDeriver.level(m("STATUS_CODE", 0, "Status", "x"))).isEqualTo("warn");
    assertThat(LevelDeriver.level(m("ERROR_CODE", 0.0))).isEqualTo("error");
    assertThat(LevelDeriver.level(m("ERROR_CODE", "\u00a0none\u3000"))).isEqualTo("info");
    assertThat(LevelDeriver.level(m())).isEqualTo("info");
  }
}
