package io.sf2loki.app.e2e;

import org.junit.jupiter.api.DisplayName;

/** {@link ShardedDaemonContract} on {@code file_lease}: lease files per org and seat in one dir. */
@DisplayName("HA-29: per_org daemons on file_lease")
class ShardedFileLeaseDaemonTest extends ShardedDaemonContract {
  @Override
  protected String coordinate(String identity) {
    return """
        coordinate:
          type: file_lease
          per_org: true
          file_lease:
            path: "%s"
            holder_id: %s
            ttl: %dms
            renew_interval: %dms
        """
        .formatted(dir.resolve("leader.lease"), identity, LEASE.toMillis(), RENEW.toMillis());
  }
}
