package io.sf2loki.app.config;

import io.sf2loki.core.settings.Setting;

/**
 * Renders {@link ConfigModel} as the Markdown configuration reference (SPEC CFG-26, CLI-6): one
 * table per object with the real default and a separate example column. The committed {@code
 * docs/config-reference.md} must equal this output (CFG-27).
 */
public final class ConfigReference {
  /** The command that regenerates the committed reference. */
  public static final String REGENERATE = "./sf2loki config reference > docs/config-reference.md";

  private ConfigReference() {}

  /** The whole reference document. */
  public static String render() {
    StringBuilder out = new StringBuilder();
    out.append("# sf2loki configuration reference\n\n")
        .append("<!-- Generated from the configuration model (SPEC CFG-26); do not edit.\n")
        .append("     Regenerate with: ")
        .append(REGENERATE)
        .append(" -->\n\n")
        .append("Types: `duration` = `500ms`, `5m`, `1h30m`, ISO-8601 `PT5M` or seconds (CFG-5);")
        .append(" `secret` = inline value or `<key>_file` path (CFG-7). Every object rejects")
        .append(" unknown keys (CFG-4). Editors can validate a file against")
        .append(" `sf2loki config schema` (JSON Schema 2020-12).\n");
    for (Group g : ConfigModel.ROOT.children()) {
      group(out, g, g.key() + (g.list() ? "[]" : ""));
    }
    return out.toString();
  }

  private static void group(StringBuilder out, Group g, String path) {
    if (!g.settings().isEmpty()) {
      out.append("\n## `").append(path).append("`\n\n").append(g.description());
      if (!g.spec().isEmpty()) {
        out.append(" (").append(g.spec()).append(')');
      }
      out.append("\n\n| key | type | default | allowed | example | description | SPEC |\n")
          .append("|---|---|---|---|---|---|---|\n");
      for (Setting s : g.settings()) {
        out.append("| `")
            .append(s.key())
            .append("` | ")
            .append(SettingText.typeCell(s))
            .append(" | ")
            .append(cell(SettingText.defaultCell(s)))
            .append(" | ")
            .append(cell(SettingText.boundsCell(s)))
            .append(" | ")
            .append(s.example() == null ? "" : "`" + cell(s.example()) + "`")
            .append(" | ")
            .append(cell(s.description()))
            .append(" | ")
            .append(s.spec())
            .append(" |\n");
      }
    }
    if (g == ConfigModel.ORGS) {
      out.append("\n`orgs[].salesforce` (required) and `orgs[].sources` take the keys of")
          .append(" `salesforce` and `sources` below.\n");
      group(out, ConfigModel.ORG_LOKI, path + ".loki"); // FEAT-6, CFG-42
      return;
    }
    for (Group c : g.children()) {
      group(out, c, path + "." + c.key() + (c.list() ? "[]" : ""));
    }
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
