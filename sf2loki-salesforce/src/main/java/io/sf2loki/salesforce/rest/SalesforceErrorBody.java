package io.sf2loki.salesforce.rest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classification view of a Salesforce error body (SPEC SRC-27): every element of a REST error
 * array {@code [{"message":…,"errorCode":…},…]}, a single REST error object, or an OAuth error
 * {@code {"error":…,"error_description":…}} (AUTH-5) — or, for a body that is not JSON, the {@code
 * <errorCode>} elements of Salesforce's XML error form — read from the first {@link #MAX_BYTES}
 * bytes of the body — never from the 500-character excerpt that goes into exception messages.
 *
 * <p>Parsing is streaming and tolerant: a body cut at the bound, or otherwise ending mid-JSON,
 * keeps every error whose code and message were complete before the cut; a body that is not JSON
 * (an HTML page) has no errors. Precedence of {@link #primaryCode()} (a second element never flips
 * it): {@code REQUEST_LIMIT_EXCEEDED} (throttle) &gt; {@code INVALID_SESSION_ID} (auth) &gt; the
 * first code of the array. Immutable.
 *
 * @param errors the errors in body order
 * @param truncated whether the body was longer than {@link #MAX_BYTES}
 */
public record SalesforceErrorBody(List<Error> errors, boolean truncated) {
  /** Bytes of an error body read for classification: 64 KiB. */
  public static final int MAX_BYTES = 64 * 1024;

  /** {@code errorCode} of the REST throttle (SRC-17, ELF-8, APX-6). */
  public static final String REQUEST_LIMIT_EXCEEDED = "REQUEST_LIMIT_EXCEEDED";

  /** {@code errorCode} of an expired or invalid session (AUTH-7). */
  public static final String INVALID_SESSION_ID = "INVALID_SESSION_ID";

  private static final JsonFactory JSON = new JsonFactory();
  private static final Pattern XML_ERROR =
      Pattern.compile(
          "<errorCode>\\s*([A-Za-z0-9_]+)\\s*</errorCode>(?:\\s*<message>([^<]*)</message>)?");
  private static final Pattern NO_SUCH_COLUMN =
      Pattern.compile("No such column '([A-Za-z0-9_.]+)'");

  /**
   * One error of the body.
   *
   * @param code REST {@code errorCode} or OAuth {@code error}; null when absent
   * @param message REST {@code message} or OAuth {@code error_description}, whole; null when absent
   */
  public record Error(String code, String message) {}

  public SalesforceErrorBody {
    errors = List.copyOf(errors);
  }

  /** A body without errors (not JSON, empty). */
  public static SalesforceErrorBody none() {
    return new SalesforceErrorBody(List.of(), false);
  }

  /** Reads at most {@link #MAX_BYTES} of {@code body} and parses them. */
  public static SalesforceErrorBody read(Spool body) {
    try (InputStream in = body.open()) {
      byte[] head = in.readNBytes(MAX_BYTES + 1);
      return parse(head);
    } catch (IOException e) {
      return none();
    }
  }

  /** Parses a body held as text (e.g. the OAuth token response), bounded by {@link #MAX_BYTES}. */
  public static SalesforceErrorBody parse(String body) {
    return body == null ? none() : parse(body.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Parses the first {@link #MAX_BYTES} bytes of {@code body}; longer input is marked {@link
   * #truncated()} and parsed up to the bound.
   */
  public static SalesforceErrorBody parse(byte[] body) {
    boolean truncated = body.length > MAX_BYTES;
    int len = Math.min(body.length, MAX_BYTES);
    List<Error> out = new ArrayList<>();
    try (JsonParser p = JSON.createParser(body, 0, len)) {
      JsonToken first = p.nextToken();
      if (first == JsonToken.START_OBJECT) {
        readObject(p, out);
      } else if (first == JsonToken.START_ARRAY) {
        while (p.nextToken() == JsonToken.START_OBJECT) {
          readObject(p, out);
        }
      }
    } catch (IOException e) {
      // not JSON, or cut mid-document: keep what was complete
    }
    if (out.isEmpty()) {
      // the XML form (<Errors><Error><errorCode>…</errorCode><message>…</message>…)
      Matcher m = XML_ERROR.matcher(new String(body, 0, len, StandardCharsets.UTF_8));
      while (m.find()) {
        out.add(new Error(m.group(1), m.group(2)));
      }
    }
    return new SalesforceErrorBody(out, truncated);
  }

  /** Reads one object whose START_OBJECT was consumed; adds it when it names a code or message. */
  private static void readObject(JsonParser p, List<Error> out) throws IOException {
    String code = null;
    String oauthCode = null;
    String message = null;
    String description = null;
    try {
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
          p.skipChildren();
          continue;
        }
        String text = v == JsonToken.VALUE_NULL ? null : p.getText();
        switch (name) {
          case "errorCode" -> code = text;
          case "error" -> oauthCode = text;
          case "message" -> message = text;
          case "error_description" -> description = text;
          default -> {}
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new IOException("object not closed");
      }
    } finally {
      String c = code != null ? code : oauthCode;
      String m = message != null ? message : description;
      if (c != null || m != null) {
        out.add(new Error(c, m));
      }
    }
  }

  /** Every non-null code, in body order, without repeats. */
  public Set<String> codes() {
    Set<String> out = new LinkedHashSet<>();
    for (Error e : errors) {
      if (e.code() != null) {
        out.add(e.code());
      }
    }
    return out;
  }

  /** Whether any element has {@code code} (exact, case-sensitive as Salesforce sends it). */
  public boolean hasCode(String code) {
    return codes().contains(code);
  }

  /**
   * The code the call is classified by: {@code REQUEST_LIMIT_EXCEEDED} when any element has it,
   * else {@code INVALID_SESSION_ID} when any has it, else the first code; empty without codes.
   */
  public Optional<String> primaryCode() {
    Set<String> codes = codes();
    if (codes.contains(REQUEST_LIMIT_EXCEEDED)) {
      return Optional.of(REQUEST_LIMIT_EXCEEDED);
    }
    if (codes.contains(INVALID_SESSION_ID)) {
      return Optional.of(INVALID_SESSION_ID);
    }
    return codes.stream().findFirst();
  }

  /**
   * The columns named by {@code No such column '<name>'} in the messages of {@code INVALID_FIELD}
   * elements (ELF-5), in body order; the query echo before it is not consulted.
   */
  public List<String> invalidFields() {
    List<String> out = new ArrayList<>();
    for (Error e : errors) {
      if ("INVALID_FIELD".equals(e.code()) && e.message() != null) {
        for (String c : columnsNamed(e.message())) {
          if (!out.contains(c)) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  /** The columns named {@code No such column '<name>'} in {@code text}, in order. */
  public static List<String> columnsNamed(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = NO_SUCH_COLUMN.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }
}
