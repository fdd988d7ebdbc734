package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Binds {@code …transforms[]} rules (SPEC CFG-19, XF-1…XF-5). Package-private part of {@link
 * ConfigBinder}.
 */
final class TransformBinding {
  private final Section.Problems problems;

  TransformBinding(Section.Problems problems) {
    this.problems = problems;
  }

  List<TransformRule> bind(Section s, String key, Set<String> promotedLabels) {
    List<TransformRule> rules = new ArrayList<>();
    List<JsonNode> items = s.list(key);
    for (int i = 0; i < items.size(); i++) {
      Section r =
          new Section(items.get(i), s.path(key) + "." + i, problems, ConfigBinder.TRANSFORM_KEYS);
      TransformRule.Action action =
          r.enumValue("action", TransformRule.Action.values(), null, false);
      if (action == null) {
        if (!r.has("action")) {
          r.problem("action", "required");
        }
        continue;
      }
      List<String> fields = r.stringList(SourceKeys.XF_FIELDS);
      Map<String, String> match = r.stringMap("match");
      Optional<String> pattern = r.optString("pattern");
      String replacement = r.string(SourceKeys.XF_REPLACEMENT);
      if (action == TransformRule.Action.DROP_ROW) {
        if (!fields.isEmpty()) {
          r.problem("fields", "not allowed for drop_row (use match)");
        }
        if (match.isEmpty()) {
          r.problem("match", "required and non-empty for drop_row");
        }
      } else {
        if (fields.isEmpty()) {
          r.problem("fields", "required and non-empty for " + action.yaml());
        }
        if (!match.isEmpty()) {
          r.problem("match", "only allowed for drop_row");
        }
      }
      if (action == TransformRule.Action.REGEX_REPLACE) {
        if (pattern.isEmpty()) {
          r.problem("pattern", "required for regex_replace");
        } else {
          checkPatternCompiles(r, pattern.get());
        }
      } else if (pattern.isPresent()) {
        r.problem("pattern", "only allowed for regex_replace");
      }
      if (action == TransformRule.Action.DROP_FIELD) {
        for (String f : fields) {
          if (promotedLabels.contains(f)) {
            r.problem(
                "fields", "drop_field cannot remove '" + f + "', which is promoted via labels");
          }
        }
      }
      rules.add(
          new TransformRule(
              action,
              fields,
              Collections.unmodifiableMap(match),
              pattern,
              replacement,
              r.string(SourceKeys.XF_NAME)));
    }
    return List.copyOf(rules);
  }

  /**
   * A compile check only; the full XF-5 grammar check and translation belong to the transform
   * compiler.
   */
  private static void checkPatternCompiles(Section r, String pattern) {
    String javaPattern =
        pattern
            .replace("(?P<", "(?<")
            .replaceAll("\\(\\?P=([A-Za-z_][A-Za-z0-9_]*)\\)", "\\\\k<$1>");
    try {
      Pattern.compile(javaPattern);
    } catch (PatternSyntaxException e) {
      r.problem("pattern", "does not compile: " + e.getDescription());
    }
  }
}
