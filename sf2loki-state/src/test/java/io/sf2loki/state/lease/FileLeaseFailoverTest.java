package io.sf2loki.state.lease;

import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;

/** 20 forced losses on {@code file_lease} with one file store in term-lock mode (STATE-5). */
@DisplayName("HA-7/HA-8/HA-10/HA-11: file_lease, 20 forced lease losses while producing")
class FileLeaseFailoverTest extends LeaseFailoverContract {
  @TempDir Path dir;

  @Override
  protected CheckpointStore store() {
    return new FileCheckpointStore(dir.resolve("state.json"), FileCheckpointStore.LockMode.TERM);
  }

  @Override
  protected LeaseStorage lease() {
    return new FileLeaseStorage(dir.resolve("leader.lease"));
  }

  @Override
  protected String rawState() {
    try {
      return Files.readString(dir.resolve("state.json"));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected int losses() {
    return 20;
  }
}
