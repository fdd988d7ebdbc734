package io.sf2loki.state.lease;

import io.sf2loki.state.s3.S3Backend;
import io.sf2loki.state.s3.S3StoreSettings;
import io.sf2loki.state.testing.S3ProxyProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease contract on S3 (SPEC FEAT-7, HA-16) against s3proxy run as a separate JVM: real {@code
 * If-None-Match: *} / {@code If-Match} requests and real 412 answers. Conflicts are driven
 * deterministically: s3proxy is not atomic under concurrent conditional writes (JAVA-STACK §2.10),
 * so a race test would only test the fake.
 */
class S3LeaseStorageTest extends LeaseStorageContract {
  static final String BUCKET = "leases";
  @TempDir static Path dir;
  private static S3ProxyProcess s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3ProxyProcess.start(dir.resolve("s3proxy"));
    s3.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  @Override
  protected LeaseStorage storage() {
    return new ObjectLeaseStorage(
        new S3Backend(
            new S3StoreSettings(
                BUCKET, name, Optional.empty(), Optional.of(s3.endpoint()), Duration.ofSeconds(10)),
            S3ProxyProcess.CREDENTIALS));
  }

  @Override
  protected void putRaw(String text) {
    s3.put(BUCKET, name, text);
  }

  @Override
  protected boolean conditional() {
    return true;
  }
}
