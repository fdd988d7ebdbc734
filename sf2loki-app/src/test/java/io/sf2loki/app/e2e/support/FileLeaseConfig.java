package io.sf2loki.app.e2e.support;

import java.nio.file.Path;
import java.time.Duration;

/**
 * One replica's configuration for a {@code file_lease} pair (SPEC HA-9): the base YAML written by a
 * scenario, with a fixed health port, the file checkpoint store and a {@code coordinate.file_lease}
 * block naming {@code holder}.
 */
public final class FileLeaseConfig {
  private FileLeaseConfig() {}

  /**
   * Writes {@code <dir>/<holder>.yaml}.
   *
   * @param base the scenario's YAML ({@code health_addr: "127.0.0.1:0"}, a {@code state:} block and
   *     a {@code service:} block, each exactly once)
   * @return the written file
   */
  public static Path write(
      Path base, Path dir, Path leaseFile, String holder, int port, Duration ttl, Duration renew) {
    return ConfigText.read(base)
        .replace("health_addr: \"127.0.0.1:0\"", "health_addr: \"127.0.0.1:" + port + "\"")
        .insertAfter("state:", "  store: file\n")
        .replace(
            "service:\n",
            "coordinate:\n"
                + "  type: file_lease\n"
                + "  file_lease:\n"
                + "    path: \""
                + leaseFile
                + "\"\n"
                + "    ttl: "
                + ttl.toMillis()
                + "ms\n"
                + "    renew_interval: "
                + renew.toMillis()
                + "ms\n"
                + "    holder_id: "
                + holder
                + "\n"
                + "service:\n")
        .writeTo(dir.resolve(holder + ".yaml"));
  }
}
