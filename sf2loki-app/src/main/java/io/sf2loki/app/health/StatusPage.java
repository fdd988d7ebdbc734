package io.sf2loki.app.health;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/**
 * Renders a {@link StatusSnapshot} as JSON (default) or, when the client accepts {@code text/html},
 * as a plain HTML page with one table per section (SPEC FEAT-3). Every value is HTML-escaped.
 */
public final class StatusPage {
  /** JSON content type. */
  public static final String JSON = "application/json; charset=utf-8";

  /** HTML content type. */
  public static final String HTML = "text/html; charset=utf-8";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private StatusPage() {}

  /** Chooses HTML when the {@code Accept} header names {@code text/html}, else JSON. */
  public static HealthServer.Response render(StatusSnapshot s, String accept) {
    if (accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("text/html")) {
      return new HealthServer.Response(200, HTML, html(s).getBytes(StandardCharsets.UTF_8));
    }
    return new HealthServer.Response(200, JSON, json(s).getBytes(StandardCharsets.UTF_8));
  }

  /** The JSON document (field names are the record component names). */
  public static String json(StatusSnapshot s) {
    try {
      return MAPPER.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render status", e);
    }
  }

  /** The HTML page: one table each for the service, the sources, the lanes and the governor. */
  public static String html(StatusSnapshot s) {
    StringBuilder b = new StringBuilder(4096);
    b.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>sf2loki status</title>")
        .append("<style>table{border-collapse:collapse}td,th{border:1px solid #999;")
        .append("padding:2px 6px;text-align:left}</style>")
        .append("</head><body><h1>sf2loki status</h1><table id=\"service\">");
    row(b, "th", List.of("version", "role", "epoch", "readiness", "time"));
    row(b, "td", List.of(s.version(), s.role(), Long.toString(s.epoch()), s.readiness(), s.time()));
    b.append("</table><h2>Sources</h2>");
    table(
        b,
        "sources",
        List.of(
            "source",
            "position",
            "position time",
            "age (s)",
            "age from",
            "last poll",
            "error class",
            "last poll at",
            "last error",
            "last error at"),
        s.sources(),
        src ->
            List.of(
                src.name(),
                src.position(),
                src.positionTime(),
                src.ageSeconds() < 0 ? "-" : Long.toString(src.ageSeconds()),
                src.ageBasis(),
                src.lastPoll(),
                src.lastPollClass(),
                src.lastPollAt(),
                src.lastError(),
                src.lastErrorAt()));
    b.append("<h2>Lanes</h2>");
    table(
        b,
        "lanes",
        List.of("lane", "depth (entries)", "bytes", "failing since"),
        s.lanes(),
        l ->
            List.of(
                l.name(), Long.toString(l.depth()), Long.toString(l.bytes()), l.failingSince()));
    if (!s.orgs().isEmpty()) {
      b.append("<h2>Orgs</h2>"); // OBS-38: coordinate.per_org
      table(
          b,
          "orgs",
          List.of("org", "leader", "epoch"),
          s.orgs(),
          o -> List.of(o.name(), Boolean.toString(o.leader()), Long.toString(o.epoch())));
    }
    b.append("<h2>Egress governor</h2><table id=\"governor\">");
    row(b, "th", List.of("paused", "reason"));
    row(b, "td", List.of(Boolean.toString(s.governor().paused()), s.governor().reason()));
    return b.append("</table></body></html>").toString();
  }

  private static <T> void table(
      StringBuilder b,
      String id,
      List<String> head,
      List<T> rows,
      Function<T, List<String>> cells) {
    b.append("<table id=\"").append(id).append("\"><thead>");
    row(b, "th", head);
    b.append("</thead><tbody>");
    for (T r : rows) {
      row(b, "td", cells.apply(r));
    }
    b.append("</tbody></table>");
  }

  private static void row(StringBuilder b, String cell, List<String> values) {
    b.append("<tr>");
    for (String v : values) {
      b.append('<')
          .append(cell)
          .append('>')
          .append(escape(v))
          .append("</")
          .append(cell)
          .append('>');
    }
    b.append("</tr>");
  }

  /** Escapes {@code & < > " '} for HTML text and attribute content. */
  static String escape(String v) {
    if (v == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
