package io.sf2loki.core.pipeline;

import io.sf2loki.core.model.Lane;
import java.util.Objects;

/**
 * One lane of a term (SPEC PIPE-2, PIPE-28): its kind and its Loki identity group. Sources of
 * different groups never share a lane, so one identity's failing pushes hold only its own lanes.
 *
 * @param kind streaming or bulk
 * @param group the identity group, empty for the deployment's identity ({@code sink.loki})
 */
record LaneId(Lane kind, String group) {
  LaneId {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(group, "group");
  }

  /** The name in logs, metric attributes and {@code /statusz} (OBS-39). */
  String label() {
    return label(kind, group);
  }

  static String label(Lane kind, String group) {
    return group.isEmpty() ? kind.label() : kind.label() + "/" + group;
  }
}
