package io.sf2loki.state.shard;

import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.lease.FileLeaseStorage;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.lease.LeaseStoreBinding;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;

/** HA-27…HA-30 on {@code file_lease}: one lease file per org and per seat in a shared directory. */
@DisplayName("HA-27…HA-30: file_lease sharding")
class ShardedFileLeaseTest extends ShardedLeaseContract {
  @TempDir Path dir;

  @Override
  protected Duration lease() {
    return Duration.ofSeconds(3); // fsync per write: slow disks need the room
  }

  @Override
  protected Duration renew() {
    return Duration.ofMillis(500);
  }

  @Override
  protected LeaseProtocol orgLease(String org, LeaseSettings s, LeaseStoreBinding b, TimeSource t) {
    Path p = ShardNames.fileOrg(dir.resolve("leader.lease"), org);
    return LeaseProtocol.document(new FileLeaseStorage(p), s, b, t, LeaseEvents.none());
  }

  @Override
  protected LeaseProtocol seatLease(int i, LeaseSettings s, TimeSource t) {
    Path p = ShardNames.fileSeat(dir.resolve("leader.lease"), i);
    return LeaseProtocol.document(
        new FileLeaseStorage(p), s, LeaseStoreBinding.none(), t, LeaseEvents.none());
  }
}
