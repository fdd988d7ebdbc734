package io.sf2loki.app.backfill;

import io.sf2loki.app.config.StateConfig;
import java.nio.file.Path;

/**
 * Where backfill cursors live (SPEC BF-2): beside the daemon's document, never in it.
 *
 * <ul>
 *   <li>file: the sibling {@code <stem>-backfill<suffix>} of {@code state.file.path};
 *   <li>s3/gcs: the key/object name with {@code -backfill} inserted before its last extension.
 * </ul>
 */
final class BackfillStore {
  private BackfillStore() {}

  /** The state configuration of the backfill document. */
  static StateConfig backfillDocument(StateConfig c) {
    Path p = c.file().path();
    StateConfig.File file =
        new StateConfig.File(p.resolveSibling(name(p.getFileName().toString())));
    StateConfig.S3 s3 = c.s3();
    if (s3 != null) {
      s3 = new StateConfig.S3(s3.bucket(), name(s3.key()), s3.region(), s3.endpointUrl());
    }
    StateConfig.Gcs gcs = c.gcs();
    if (gcs != null) {
      gcs =
          new StateConfig.Gcs(
              gcs.bucket(),
              name(gcs.objectName()),
              gcs.serviceFile(),
              gcs.endpointUrl(),
              gcs.anonymous());
    }
    return new StateConfig(c.store(), file, s3, gcs, c.minWriteInterval());
  }

  /** {@code state.json} → {@code state-backfill.json}; {@code a/b} → {@code a/b-backfill}. */
  static String name(String name) {
    int slash = name.lastIndexOf('/');
    int dot = name.lastIndexOf('.');
    if (dot <= slash + 1) {
      return name + "-backfill";
    }
    return name.substring(0, dot) + "-backfill" + name.substring(dot);
  }

  /**
   * The cursor key (SRC-15): {@code backfill:<interval>:<EventType>}, multi-org {@code
   * backfill:org=<name>:<interval>:<EventType>}.
   */
  static String key(String orgPrefixOrNull, String interval, String type) {
    String base = "backfill:";
    if (orgPrefixOrNull != null) {
      base += "org=" + orgPrefixOrNull + ":";
    }
    return base + interval + ":" + type;
  }
}
