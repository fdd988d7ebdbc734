package io.sf2loki.salesforce.rest;

import static io.sf2loki.salesforce.rest.RestTestSupport.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SalesforceErrorBodyTest {
  private static final String SHORT = fixture("reconstructed_error_invalid_field_400.json");
  private static final String LONG =
      fixture("reconstructed_error_invalid_field_400_full_query.json");

  @Test
  @DisplayName("SRC-27: the short windowed INVALID_FIELD echo yields the code and the column")
  void shortRealBody() {
    SalesforceErrorBody b = SalesforceErrorBody.parse(SHORT);
    assertThat(SHORT.length()).isLessThan(500);
    assertThat(b.primaryCode()).contains("INVALID_FIELD");
    assertThat(b.invalidFields()).containsExactly("Interval");
    assertThat(b.truncated()).isFalse();
  }

  @Test
  @DisplayName(
      "SRC-27: the 547-byte full-query echo (errorCode beyond the 500-character excerpt) is"
          + " classified the same; the column comes from No such column, not from the echo")
  void longRealBody() {
    assertThat(LONG.getBytes(StandardCharsets.UTF_8)).hasSize(547);
    assertThat(LONG.indexOf("\"errorCode\"")).isGreaterThan(500);
    SalesforceErrorBody b = SalesforceErrorBody.parse(LONG);
    assertThat(b.primaryCode()).contains("INVALID_FIELD");
    assertThat(b.invalidFields()).containsExactly("Interval");
    assertThat(b.errors().getFirst().message()).contains("ERROR at Row:1:Column:21");
  }

  @Test
  @DisplayName("SRC-27: a message of many kilobytes before errorCode does not hide the code")
  void veryLongMessage() {
    String body =
        "[{\"message\":\"" + "x".repeat(40_000) + "\",\"errorCode\":\"MALFORMED_QUERY\"}]";
    assertThat(SalesforceErrorBody.parse(body).primaryCode()).contains("MALFORMED_QUERY");
  }

  @Test
  @DisplayName(
      "SRC-27: every element counts; throttle > auth > first code, whatever the order, so a"
          + " second error never flips the classification")
  void multiElementPrecedence() {
    String throttleSecond =
        "[{\"message\":\"a\",\"errorCode\":\"INVALID_FIELD\"},"
            + "{\"errorCode\":\"REQUEST_LIMIT_EXCEEDED\",\"message\":\"TotalRequests Limit"
            + " exceeded.\"}]";
    SalesforceErrorBody b = SalesforceErrorBody.parse(throttleSecond);
    assertThat(b.codes()).containsExactly("INVALID_FIELD", "REQUEST_LIMIT_EXCEEDED");
    assertThat(b.primaryCode()).contains("REQUEST_LIMIT_EXCEEDED");
    assertThat(b.hasCode("INVALID_FIELD")).isTrue();

    String authSecond =
        "[{\"errorCode\":\"UNKNOWN_EXCEPTION\",\"message\":\"x\"},"
            + "{\"errorCode\":\"INVALID_SESSION_ID\",\"message\":\"Session expired or invalid\"}]";
    assertThat(SalesforceErrorBody.parse(authSecond).primaryCode()).contains("INVALID_SESSION_ID");

    String fieldThenOther =
        "["
            + SHORT.substring(1, SHORT.length() - 1).strip()
            + ",{\"errorCode\":\"MALFORMED_QUERY\",\"message\":\"second\"}]";
    SalesforceErrorBody two = SalesforceErrorBody.parse(fieldThenOther);
    assertThat(two.primaryCode()).contains("INVALID_FIELD");
    assertThat(two.invalidFields()).containsExactly("Interval");
    String otherThenField =
        "[{\"errorCode\":\"MALFORMED_QUERY\",\"message\":\"first\"},"
            + SHORT.substring(1, SHORT.length() - 1).strip()
            + "]";
    assertThat(SalesforceErrorBody.parse(otherThenField).invalidFields())
        .containsExactly("Interval");
  }

  @Test
  @DisplayName("SRC-27: the OAuth error object and the XML error form give their codes")
  void oauthAndXml() {
    SalesforceErrorBody oauth =
        SalesforceErrorBody.parse(fixture("reconstructed_oauth_error_invalid_grant.json"));
    assertThat(oauth.primaryCode()).contains("invalid_grant");
    assertThat(oauth.errors().getFirst().message()).isEqualTo("authentication failure");
    SalesforceErrorBody xml =
        SalesforceErrorBody.parse(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Errors><Error><errorCode>"
                + "REQUEST_LIMIT_EXCEEDED</errorCode><message>TotalRequests Limit exceeded."
                + "</message></Error></Errors>");
    assertThat(xml.primaryCode()).contains("REQUEST_LIMIT_EXCEEDED");
  }

  @Test
  @DisplayName("SRC-27: a body that is not JSON (HTML page, empty, garbage) has no code")
  void nonJson() {
    assertThat(
            SalesforceErrorBody.parse(
                    "<!DOCTYPE html><html><body>REQUEST_LIMIT_EXCEEDED</body></html>")
                .codes())
        .isEmpty();
    assertThat(SalesforceErrorBody.parse("").primaryCode()).isEmpty();
    assertThat(SalesforceErrorBody.parse("{not json").codes()).isEmpty();
    assertThat(SalesforceErrorBody.parse((String) null).codes()).isEmpty();
  }

  @Test
  @DisplayName(
      "SRC-27: a body longer than 64 KiB is parsed up to the bound; elements complete before the"
          + " cut are kept, the one cut in half is not")
  void truncatedAtBound() {
    String first = "{\"message\":\"first\",\"errorCode\":\"INVALID_FIELD\"}";
    String cut =
        ",{\"message\":\""
            + "y".repeat(SalesforceErrorBody.MAX_BYTES)
            + "\",\"errorCode\":\"LATE\"}";
    byte[] body = ("[" + first + cut + "]").getBytes(StandardCharsets.UTF_8);
    SalesforceErrorBody b = SalesforceErrorBody.parse(body);
    assertThat(b.truncated()).isTrue();
    assertThat(b.codes()).containsExactly("INVALID_FIELD");

    // an element whose code lies before the bound but whose object is cut keeps its code
    String codeFirst =
        "[{\"errorCode\":\"REQUEST_LIMIT_EXCEEDED\",\"message\":\""
            + "z".repeat(SalesforceErrorBody.MAX_BYTES)
            + "\"}]";
    SalesforceErrorBody c = SalesforceErrorBody.parse(codeFirst.getBytes(StandardCharsets.UTF_8));
    assertThat(c.truncated()).isTrue();
    assertThat(c.primaryCode()).contains("REQUEST_LIMIT_EXCEEDED");

    // exactly at the bound is not truncated
    byte[] exact = new byte[SalesforceErrorBody.MAX_BYTES];
    java.util.Arrays.fill(exact, (byte) ' ');
    byte[] json = "[{\"errorCode\":\"X\"}]".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(json, 0, exact, 0, json.length);
    SalesforceErrorBody e = SalesforceErrorBody.parse(exact);
    assertThat(e.truncated()).isFalse();
    assertThat(e.codes()).containsExactly("X");
  }

  @Test
  @DisplayName("SRC-27: the spool reader reads at most 64 KiB + 1 byte")
  void readsSpoolBounded() {
    byte[] big = new byte[SalesforceErrorBody.MAX_BYTES * 3];
    java.util.Arrays.fill(big, (byte) 'a');
    SalesforceErrorBody b = SalesforceErrorBody.read(new MemorySpool(big));
    assertThat(b.truncated()).isTrue();
    assertThat(b.errors()).isEqualTo(List.of());
  }
}
