package io.sf2loki.state.lease;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The lease contract on a local file (SPEC HA-9). */
class FileLeaseStorageTest extends LeaseStorageContract {
  @TempDir Path dir;

  @Override
  protected LeaseStorage storage() {
    return new FileLeaseStorage(dir.resolve(name));
  }

  @Override
  protected void putRaw(String text) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  @Override
  protected boolean conditional() {
    return false;
  }
}
