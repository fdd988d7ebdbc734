package io.sf2loki.app.config;

import io.sf2loki.core.settings.Setting;
import java.util.ArrayList;
import java.util.List;

/**
 * One configuration object of SPEC §1.3 (a mapping, or the item of a list of mappings): its own
 * {@link Setting}s and its child objects. The tree rooted at {@link ConfigModel#ROOT} is the single
 * source of the known keys (CFG-4), the defaults and bounds the binder applies, and the generated
 * example, reference and JSON Schema (CFG-26).
 *
 * @param key the YAML key of this object in its parent ({@code ""} for the root)
 * @param list true when the key holds a list of such objects ({@code orgs}, {@code objects}, …)
 * @param bareStringItem a list item may also be a bare string meaning {@code {name: X}} (CFG-17)
 * @param required the object must be present
 * @param description one sentence for the reference
 * @param spec SPEC IDs for the reference
 * @param settings the scalar / list / map keys, in reference order
 * @param children the nested objects, in reference order
 */
public record Group(
    String key,
    boolean list,
    boolean bareStringItem,
    boolean required,
    String description,
    String spec,
    List<Setting> settings,
    List<Group> children) {

  public Group {
    settings = List.copyOf(settings);
    children = List.copyOf(children);
  }

  /** A mapping-valued key. */
  static Group object(String key, String description, String spec, List<Setting> settings) {
    return new Group(key, false, false, false, description, spec, settings, List.of());
  }

  /** A list-of-mappings key. */
  static Group listOf(String key, String description, String spec, List<Setting> settings) {
    return new Group(key, true, false, false, description, spec, settings, List.of());
  }

  /** This object with child objects. */
  Group with(Group... more) {
    List<Group> all = new ArrayList<>(children);
    all.addAll(List.of(more));
    return new Group(key, list, bareStringItem, required, description, spec, settings, all);
  }

  /** This object as a mandatory one. */
  Group mandatory() {
    return new Group(key, list, bareStringItem, true, description, spec, settings, children);
  }

  /** This list's items may be bare strings (CFG-17). */
  Group stringItems() {
    return new Group(key, list, true, required, description, spec, settings, children);
  }

  /** The keys this object accepts (CFG-4): settings, {@code <secret>_file} twins, children. */
  List<String> keys() {
    List<String> out = new ArrayList<>();
    for (Setting s : settings) {
      out.add(s.key());
      if (s.type() == Setting.Type.SECRET) {
        out.add(s.key() + "_file");
      }
    }
    for (Group g : children) {
      out.add(g.key());
    }
    return out;
  }

  /** The setting named {@code key}; fails when absent (a definition bug). */
  Setting setting(String key) {
    for (Setting s : settings) {
      if (s.key().equals(key)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no setting '" + key + "' in '" + this.key + "'");
  }

  /** The child object named {@code key}; fails when absent (a definition bug). */
  Group child(String key) {
    for (Group g : children) {
      if (g.key().equals(key)) {
        return g;
      }
    }
    throw new IllegalArgumentException("no object '" + key + "' in '" + this.key + "'");
  }
}
