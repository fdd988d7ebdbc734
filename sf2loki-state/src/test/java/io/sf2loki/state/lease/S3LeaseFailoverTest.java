package io.sf2loki.state.lease;

import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.object.ObjectCheckpointStore;
import io.sf2loki.state.object.StoreRetry;
import io.sf2loki.state.s3.S3Backend;
import io.sf2loki.state.s3.S3StoreSettings;
import io.sf2loki.state.testing.S3ProxyProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Failover on {@code s3_lease} with an S3 checkpoint store, both against s3proxy run as a separate
 * JVM (FEAT-7). The replicas never race one conditional write on purpose: s3proxy is not atomic
 * under concurrent conditional writes (JAVA-STACK §2.10), the HA-10 verify re-read settles the rare
 * race it lets through.
 */
@DisplayName("FEAT-7/HA-16: s3_lease failover against s3proxy while producing")
class S3LeaseFailoverTest extends LeaseFailoverContract {
  static final String BUCKET = "ha-leases";
  @TempDir static Path dir;
  private static S3ProxyProcess s3;
  private static int run;
  private final String prefix = "run" + (++run) + "/";

  @BeforeAll
  static void start() throws Exception {
    s3 = S3ProxyProcess.start(dir.resolve("s3proxy"));
    s3.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  private S3Backend backend(String key) {
    return new S3Backend(
        new S3StoreSettings(
            BUCKET,
            prefix + key,
            Optional.empty(),
            Optional.of(s3.endpoint()),
            Duration.ofSeconds(5)),
        S3ProxyProcess.CREDENTIALS);
  }

  @Override
  protected CheckpointStore store() {
    return new ObjectCheckpointStore(
        backend("state.json"), StoreRetry.standard(Sleeper.system(), new StopSignal()));
  }

  @Override
  protected LeaseStorage lease() {
    return new ObjectLeaseStorage(backend("leader.lease"));
  }

  @Override
  protected String rawState() {
    try {
      return s3.get(BUCKET, prefix + "state.json");
    } catch (NoSuchKeyException e) {
      return null;
    }
  }

  @Override
  protected int losses() {
    return 6;
  }
}
