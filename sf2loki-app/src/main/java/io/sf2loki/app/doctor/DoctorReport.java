package io.sf2loki.app.doctor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The doctor's rows and exit status (SPEC DOC-1): 0 when no row FAILs, 1 when one does on a
 * loadable configuration, 2 when the configuration cannot be loaded or {@code --org} is unknown.
 *
 * @param checks rows in DOC-2 order
 * @param exitCode 0, 1 or 2
 */
public record DoctorReport(List<Check> checks, int exitCode) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public DoctorReport {
    checks = List.copyOf(checks);
  }

  /** Exit status from the rows: 1 when any FAILs, else 0. */
  static DoctorReport of(List<Check> checks) {
    boolean failed = checks.stream().anyMatch(c -> c.status() == Check.Status.FAIL);
    return new DoctorReport(checks, failed ? 1 : 0);
  }

  /** The row named {@code name} (tests). */
  public Check row(String name) {
    return checks.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no row " + name + " in " + checks));
  }

  /** {@code NAME STATUS DETAIL} in fixed-width columns, then the DOC-1 summary line. */
  public String table() {
    int w = "NAME".length();
    for (Check c : checks) {
      w = Math.max(w, c.name().length());
    }
    StringBuilder b = new StringBuilder();
    b.append(pad("NAME", w)).append("  ").append(pad("STATUS", 6)).append("  DETAIL\n");
    int[] n = new int[Check.Status.values().length];
    for (Check c : checks) {
      n[c.status().ordinal()]++;
      b.append(pad(c.name(), w))
          .append("  ")
          .append(pad(c.status().name(), 6))
          .append("  ")
          .append(c.detail())
          .append('\n');
    }
    b.append(n[Check.Status.PASS.ordinal()])
        .append(" passed, ")
        .append(n[Check.Status.WARN.ordinal()])
        .append(" warnings, ")
        .append(n[Check.Status.FAIL.ordinal()])
        .append(" failed, ")
        .append(n[Check.Status.SKIP.ordinal()])
        .append(" skipped\n");
    return b.toString();
  }

  /** Exactly {@code {"checks":[{"name":…,"status":…,"detail":…},…],"exit_code":N}}. */
  public String json() {
    List<Map<String, String>> rows = new ArrayList<>();
    for (Check c : checks) {
      Map<String, String> r = new LinkedHashMap<>();
      r.put("name", c.name());
      r.put("status", c.status().name());
      r.put("detail", c.detail());
      rows.add(r);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("checks", rows);
    root.put("exit_code", exitCode);
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pad(String s, int w) {
    return s.length() >= w ? s : s + " ".repeat(w - s.length());
  }
}
