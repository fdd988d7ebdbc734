package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.core.transform.PortableRegex;
import io.sf2loki.core.transform.PortableRegexException;
import io.sf2loki.core.transform.Replacement;
import io.sf2loki.core.transform.TransformAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
    Map<String, String> firstByName = new java.util.HashMap<>();
    List<JsonNode> items = s.list(key);
    for (int i = 0; i < items.size(); i++) {
      Section r =
          new Section(items.get(i), s.path(key) + "." + i, problems, ConfigBinder.TRANSFORM_KEYS);
      TransformAction action = r.choice(SourceKeys.XF_ACTION, TransformAction.class);
      checkUniqueName(r, action, i, firstByName);
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
      if (action == TransformAction.DROP_ROW) {
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
      if (action == TransformAction.REGEX_REPLACE) {
        if (pattern.isEmpty()) {
          r.problem("pattern", "required for regex_replace");
        } else {
          checkPortable(r, pattern.get(), replacement);
        }
      } else if (pattern.isPresent()) {
        r.problem("pattern", "only allowed for regex_replace");
      }
      if (action == TransformAction.DROP_FIELD) {
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
   * CFG-45: the metric name of XF-7 (the configured name, else {@code <action>-<index>}) is unique
   * within one source's list; the second use is reported at its dotted path.
   */
  private static void checkUniqueName(
      Section r, TransformAction action, int index, Map<String, String> firstByName) {
    String configured = r.string(SourceKeys.XF_NAME);
    if (configured.isEmpty() && action == null) {
      return;
    }
    String name = configured.isEmpty() ? action.yaml() + "-" + index : configured;
    String first = firstByName.putIfAbsent(name, r.path());
    if (first != null) {
      r.problem(
          configured.isEmpty() ? null : SourceKeys.XF_NAME.key(),
          "duplicate rule name '"
              + name
              + "' (also "
              + first
              + "); rule names are unique within a source's transforms (they label"
              + " sf2loki_rows_filtered, XF-7)");
    }
  }

  /**
   * CFG-19: the pattern must stay within the portable grammar (XF-5, XF-12) and the replacement use
   * only the XF-5 escapes and groups the pattern has; problems name the code-point position.
   */
  private static void checkPortable(Section r, String pattern, String replacement) {
    PortableRegex regex;
    try {
      regex = PortableRegex.compile(pattern);
    } catch (PortableRegexException e) {
      r.problem("pattern", "outside the portable regex grammar (XF-5): " + e.getMessage());
      return;
    }
    try {
      Replacement.parse(replacement, regex);
    } catch (PortableRegexException e) {
      r.problem("replacement", "not a portable replacement (XF-5): " + e.getMessage());
    }
  }
}
