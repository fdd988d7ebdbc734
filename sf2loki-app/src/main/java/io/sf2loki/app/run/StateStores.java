package io.sf2loki.app.run;

import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.StateConfig;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.gcs.GcsAuth;
import io.sf2loki.state.gcs.GcsBackend;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.object.ObjectCheckpointStore;
import io.sf2loki.state.object.StoreRetry;
import io.sf2loki.state.s3.S3Backend;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds the configured checkpoint store (SPEC §1.3 {@code state}, STATE-3…STATE-14). */
public final class StateStores {
  private StateStores() {}

  /**
   * Validates what can be validated without I/O (CLI-4): that a file store's path is not a
   * directory; the binder checked the selected object store's keys (bucket, endpoint) at load, a
   * configuration built otherwise is checked here.
   *
   * @throws ConfigException naming the key
   */
  static void check(StateConfig c) {
    switch (c.store()) {
      case FILE -> {
        Path path = c.file().path();
        if (Files.isDirectory(path)) {
          throw new ConfigException(
              "state.file.path: "
                  + path
                  + " is a directory; give the path of the state file itself (e.g. "
                  + path.resolve("state.json")
                  + ")");
        }
      }
      case S3 -> requireBucket("state.s3.bucket", c.s3().bucket());
      case GCS -> requireBucket("state.gcs.bucket", c.gcs().bucket());
    }
  }

  private static void requireBucket(String key, String bucket) {
    if (bucket.isBlank()) {
      throw new ConfigException(key + ": required when state.store is " + key.split("\\.")[1]);
    }
  }

  /**
   * Opens the store the daemon writes through; nothing is read yet.
   *
   * @param sleeper waits between STATE-9 retries
   * @param stop cuts those waits short (the process stop)
   * @throws io.sf2loki.core.spi.StateException when GCS credentials cannot be loaded
   */
  static CheckpointStore open(StateConfig c, Sleeper sleeper, StopSignal stop) {
    return open(c, sleeper, stop, false);
  }

  /**
   * @param termLocked a lease coordinator runs: the file store takes its lock per term (STATE-5)
   */
  static CheckpointStore open(StateConfig c, Sleeper sleeper, StopSignal stop, boolean termLocked) {
    return switch (c.store()) {
      case FILE ->
          new FileCheckpointStore(
              c.file().path(),
              termLocked
                  ? FileCheckpointStore.LockMode.TERM
                  : FileCheckpointStore.LockMode.PROCESS);
      case S3 ->
          new ObjectCheckpointStore(new S3Backend(c.s3()), StoreRetry.standard(sleeper, stop));
      case GCS -> {
        GcsStoreSettings g = c.gcs();
        yield new ObjectCheckpointStore(
            new GcsBackend(g, GcsAuth.of(g)), StoreRetry.standard(sleeper, stop));
      }
    };
  }

  /**
   * Where org {@code org}'s document lives under {@code coordinate.per_org} (SPEC STATE-19): the
   * same store with {@code .org-<org>} inserted before the extension of the document's name — file
   * {@code state.json} → {@code state.org-eu.json} in the same directory, S3 key / GCS object
   * {@code sf2loki/state.json} → {@code sf2loki/state.org-eu.json}; a name without extension gets
   * the suffix appended.
   */
  public static StateConfig orgDocument(StateConfig c, String org) {
    return switch (c.store()) {
      case FILE -> {
        Path p = c.file().path();
        Path named = p.resolveSibling(orgName(p.getFileName().toString(), org));
        yield new StateConfig(
            c.store(), new StateConfig.File(named), c.s3(), c.gcs(), c.minWriteInterval());
      }
      case S3 ->
          new StateConfig(
              c.store(),
              c.file(),
              c.s3().withKey(orgName(c.s3().key(), org)),
              c.gcs(),
              c.minWriteInterval());
      case GCS ->
          new StateConfig(
              c.store(),
              c.file(),
              c.s3(),
              c.gcs().withObjectName(orgName(c.gcs().objectName(), org)),
              c.minWriteInterval());
    };
  }

  /** {@code .org-<org>} before the extension of the last path segment of {@code name}. */
  static String orgName(String name, String org) {
    int slash = name.lastIndexOf('/');
    int dot = name.lastIndexOf('.');
    String suffix = ".org-" + org;
    if (dot <= slash + 1) {
      return name + suffix; // no extension (or a dot file)
    }
    return name.substring(0, dot) + suffix + name.substring(dot);
  }

  /** Where the document lives: the file path, {@code s3://…} or {@code gs://…}. */
  public static String describe(StateConfig c) {
    return switch (c.store()) {
      case FILE -> c.file().path().toString();
      case S3 -> c.s3().describe();
      case GCS -> c.gcs().describe();
    };
  }
}
