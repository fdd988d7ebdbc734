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
import io.sf2loki.state.s3.S3StoreSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** Builds the configured checkpoint store (SPEC §1.3 {@code state}, STATE-3…STATE-14). */
final class StateStores {
  private StateStores() {}

  /**
   * Validates what can be validated without a network call or a write (CLI-4): the object store's
   * endpoint, and that a file store's path is not a directory.
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
      case S3 -> s3(c.s3());
      case GCS -> gcs(c.gcs());
    }
  }

  /** {@code state.s3} → the S3 store's settings. */
  static S3StoreSettings s3(StateConfig.S3 c) {
    return s3(c, "state.s3.endpoint_url");
  }

  /** The same for another object ({@code coordinate.s3_lease}); {@code key} names it in errors. */
  static S3StoreSettings s3(StateConfig.S3 c, String key) {
    return new S3StoreSettings(
        c.bucket(),
        c.key(),
        c.region(),
        c.endpointUrl().map(u -> endpoint(key, u)),
        S3StoreSettings.DEFAULT_ATTEMPT_TIMEOUT);
  }

  /** {@code state.gcs} → the GCS store's settings. */
  static GcsStoreSettings gcs(StateConfig.Gcs c) {
    return gcs(c, "state.gcs.endpoint_url");
  }

  /** The same for another object ({@code coordinate.gcs_lease}); {@code key} names it in errors. */
  static GcsStoreSettings gcs(StateConfig.Gcs c, String key) {
    return new GcsStoreSettings(
        c.bucket(),
        c.objectName(),
        c.serviceFile(),
        endpoint(key, c.endpointUrl().orElse(GcsStoreSettings.DEFAULT_ENDPOINT)),
        c.anonymous(),
        GcsStoreSettings.DEFAULT_REQUEST_TIMEOUT);
  }

  private static URI endpoint(String key, String value) {
    try {
      URI u = new URI(value);
      String scheme = Optional.ofNullable(u.getScheme()).orElse("").toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null) {
        return u;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new ConfigException(key + ": '" + value + "' is not an http(s) URL");
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
          new ObjectCheckpointStore(new S3Backend(s3(c.s3())), StoreRetry.standard(sleeper, stop));
      case GCS -> {
        GcsStoreSettings g = gcs(c.gcs());
        yield new ObjectCheckpointStore(
            new GcsBackend(g, GcsAuth.of(g)), StoreRetry.standard(sleeper, stop));
      }
    };
  }

  /** Where the document lives: the file path, {@code s3://…} or {@code gs://…}. */
  static String describe(StateConfig c) {
    return switch (c.store()) {
      case FILE -> c.file().path().toString();
      case S3 -> "s3://" + c.s3().bucket() + "/" + c.s3().key();
      case GCS -> "gs://" + c.gcs().bucket() + "/" + c.gcs().objectName();
    };
  }
}
