package io.sf2loki.app.backfill;

import io.sf2loki.app.config.StateConfig;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.s3.S3StoreSettings;
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
    S3StoreSettings s3 = c.s3() == null ? null : c.s3().withKey(name(c.s3().key()));
    GcsStoreSettings gcs =
        c.gcs() == null ? null : c.gcs().withObjectName(name(c.gcs().objectName()));
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
