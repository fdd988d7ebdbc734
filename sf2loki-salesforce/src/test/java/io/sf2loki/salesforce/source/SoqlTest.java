package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SoqlTest {
  @Test
  @DisplayName("SRC-18: a quote is escaped with a backslash, the literal single-quoted")
  void src18_quote() {
    assertThat(Soql.string("O'Brien")).isEqualTo("'O\\'Brien'");
    assertThat(Soql.string("''")).isEqualTo("'\\'\\''");
  }

  @Test
  @DisplayName("SRC-18: a backslash is doubled, also before a quote")
  void src18_backslash() {
    assertThat(Soql.string("a\\b")).isEqualTo("'a\\\\b'");
    assertThat(Soql.string("\\'")).isEqualTo("'\\\\\\''");
    assertThat(Soql.string("a'b\\c")).isEqualTo("'a\\'b\\\\c'");
  }

  @Test
  @DisplayName("SRC-18: unicode, double quotes and newlines pass through unchanged")
  void src18_unicodeKept() {
    assertThat(Soql.string("Zoë 名前 🚀")).isEqualTo("'Zoë 名前 🚀'");
    assertThat(Soql.string("say \"hi\"\n")).isEqualTo("'say \"hi\"\n'");
    assertThat(Soql.string("")).isEqualTo("''");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "' OR Id != '",
        "x' OR Name LIKE '%",
        "\\' OR Id != \\'",
        "a'); DELETE FROM Account; --",
        "'''"
      })
  @DisplayName("SRC-18: an injection attempt stays inside one literal")
  void src18_injectionStaysInsideTheLiteral(String attack) {
    String lit = Soql.string(attack);
    assertThat(lit).startsWith("'").endsWith("'");
    assertThat(unquote(lit)).isEqualTo(attack);
  }

  /** A SOQL reader's view of a literal: the body ends at the first unescaped quote. */
  private static String unquote(String lit) {
    StringBuilder out = new StringBuilder();
    for (int i = 1; i < lit.length(); i++) {
      char c = lit.charAt(i);
      if (c == '\\') {
        out.append(lit.charAt(++i));
      } else if (c == '\'') {
        assertThat(i).as("literal ends only at its last character").isEqualTo(lit.length() - 1);
        return out.toString();
      } else {
        out.append(c);
      }
    }
    throw new AssertionError("unterminated literal " + lit);
  }

  @Test
  @DisplayName("SRC-18: an IN list quotes each value; an empty list is refused")
  void src18_stringList() {
    assertThat(Soql.stringList(List.of("a", "b'c"))).isEqualTo("('a','b\\'c')");
    assertThatThrownBy(() -> Soql.stringList(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("SRC-16: datetime literals are UTC with milliseconds, unparseable text unchanged")
  void src16_datetime() {
    assertThat(Soql.datetime(Instant.parse("2024-05-01T10:00:00.1234567Z")))
        .isEqualTo("2024-05-01T10:00:00.123Z");
    assertThat(Soql.datetime("2024-05-01T12:30:00+02:00")).isEqualTo("2024-05-01T10:30:00.000Z");
    assertThat(Soql.datetime("garbage")).isEqualTo("garbage");
  }

  @ParameterizedTest
  @CsvSource({"Login,true", "My_Object__c,true", "A1,true"})
  @DisplayName("CFG-10: SOQL identifiers are [A-Za-z0-9_]+")
  void cfg10_identifiers(String name, boolean ok) {
    assertThat(Soql.isIdentifier(name)).isEqualTo(ok);
    assertThat(Soql.identifier(name)).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Login' OR Id!='", "a b", "a.b", "a-b", "Zoë", "a\n"})
  @DisplayName("CFG-10: anything else is not an identifier and is refused by name")
  void cfg10_notIdentifiers(String name) {
    assertThat(Soql.isIdentifier(name)).isFalse();
    assertThatThrownBy(() -> Soql.identifier(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a SOQL identifier: " + name);
    assertThat(Soql.isIdentifier(null)).isFalse();
  }
}
