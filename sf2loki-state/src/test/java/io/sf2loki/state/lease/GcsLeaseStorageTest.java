package io.sf2loki.state.lease;

import io.sf2loki.state.gcs.GcsAuth;
import io.sf2loki.state.gcs.GcsBackend;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.testing.FakeGcsServer;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The lease contract on GCS (SPEC FEAT-7, HA-16) against the JSON-API fake, which enforces {@code
 * ifGenerationMatch} atomically and answers GCS's real {@code 412 conditionNotMet} body.
 */
class GcsLeaseStorageTest extends LeaseStorageContract {
  static final String BUCKET = "leases";
  private static FakeGcsServer gcs;

  @BeforeAll
  static void start() throws Exception {
    gcs = FakeGcsServer.start();
    gcs.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() {
    gcs.close();
  }

  @Override
  protected LeaseStorage storage() {
    GcsStoreSettings s =
        new GcsStoreSettings(
            BUCKET, name, Optional.empty(), gcs.endpoint(), true, Duration.ofSeconds(10));
    return new ObjectLeaseStorage(new GcsBackend(s, GcsAuth.of(s)));
  }

  @Override
  protected void putRaw(String text) {
    gcs.put(BUCKET, name, text);
  }

  @Override
  protected boolean conditional() {
    return true;
  }
}
