package io.sf2loki.state.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.spi.StateConflictException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.state.Fencing;
import io.sf2loki.state.object.ObjectCheckpointStore;
import io.sf2loki.state.object.ObjectStoreContract;
import io.sf2loki.state.testing.FakeGcsServer;
import io.sf2loki.state.testing.FaultingHttpFront;
import io.sf2loki.state.testing.FaultingHttpFront.Fault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The GCS store (SPEC STATE-11, with STATE-7, STATE-9, STATE-10, STATE-13 from the contract)
 * against {@link FakeGcsServer}: the JSON API with atomic {@code ifGenerationMatch} preconditions
 * and GCS's real {@code 412 conditionNotMet} and {@code 429 rateLimitExceeded} bodies.
 */
class GcsCheckpointStoreTest extends ObjectStoreContract {
  private static final String BUCKET = "ckpt";
  private static FakeGcsServer gcs;
  private static FaultingHttpFront front;

  @BeforeAll
  static void startFake() throws Exception {
    gcs = FakeGcsServer.start();
    gcs.createBucket(BUCKET);
    front = FaultingHttpFront.start(gcs.endpoint());
  }

  @AfterAll
  static void stopFake() {
    front.close();
    gcs.close();
  }

  @Override
  protected ObjectCheckpointStore store(boolean viaFront, Duration timeout) {
    GcsStoreSettings settings =
        new GcsStoreSettings(
            BUCKET,
            key,
            Optional.empty(),
            viaFront ? front.endpoint() : gcs.endpoint(),
            true,
            timeout);
    return new ObjectCheckpointStore(new GcsBackend(settings, GcsAuth.of(settings)), retry());
  }

  @Override
  protected void putRaw(String body) {
    gcs.put(BUCKET, key, body);
  }

  @Override
  protected String getRaw() {
    return gcs.get(BUCKET, key);
  }

  @Override
  protected String describe() {
    return "gs://" + BUCKET + "/" + key;
  }

  @Override
  protected FaultingHttpFront front() {
    return front;
  }

  @Override
  protected String writeMethod() {
    return "POST";
  }

  @Override
  protected Fault[] transientReadFaults() {
    return new Fault[] {
      Fault.gcs("GET", 503, "backendError"),
      Fault.gcs("GET", 500, "internalError"),
      Fault.gcs("GET", 429, "rateLimitExceeded")
    };
  }

  @Override
  protected Fault[] transientWriteFaults() {
    return new Fault[] {
      Fault.gcs("POST", 429, "rateLimitExceeded"), Fault.gcs("POST", 502, "backendError")
    };
  }

  @Override
  protected Fault unavailableWrite() {
    return Fault.gcs("POST", 503, "backendError");
  }

  @Override
  protected Fault permanentWrite() {
    return Fault.gcs("POST", 403, "forbidden");
  }

  @Override
  protected String permanentWriteText() {
    return "403 forbidden";
  }

  @Override
  protected Fault landedThenServerError() {
    return Fault.gcsAfterApplying("POST", 503, "backendError");
  }

  @Override
  protected Fault preconditionFailed() {
    return Fault.gcs("POST", 412, "conditionNotMet");
  }

  @Test
  void state11_writesCarryIfGenerationMatchAndAdoptTheResponseGeneration() {
    int writes = gcs.writes();
    try (ObjectCheckpointStore a = store(false)) {
      a.commitMany(Map.of("k", "1"), Set.of()); // ifGenerationMatch=0
      String g1 = a.version().orElseThrow();
      a.commitMany(Map.of("k", "2"), Set.of());
      String g2 = a.version().orElseThrow();
      assertThat(Long.parseLong(g2)).isGreaterThan(Long.parseLong(g1));
      assertThat(gcs.writes() - writes).isEqualTo(2);
    }
    try (ObjectCheckpointStore fresh = store(false)) {
      fresh.fencing(new Fencing(() -> {}, () -> 1));
      fresh.load("k");
      gcs.put(BUCKET, key, "{\"k\":\"external\"}"); // new generation
      assertThatThrownBy(() -> fresh.commitMany(Map.of("k", "3"), Set.of()))
          .isInstanceOf(StateConflictException.class)
          .hasMessageContaining("412 conditionNotMet");
      assertThat(getRaw()).isEqualTo("{\"k\":\"external\"}");
    }
  }

  @Test
  void state11_aMissingBucketIsAPermanentError() {
    GcsStoreSettings settings =
        new GcsStoreSettings(
            "no-such-bucket", key, Optional.empty(), gcs.endpoint(), true, Duration.ofSeconds(5));
    try (ObjectCheckpointStore a =
        new ObjectCheckpointStore(new GcsBackend(settings, GcsAuth.anonymous()), retry())) {
      assertThat(a.load("k")).isEmpty();
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "1"), Set.of()))
          .isInstanceOf(StateException.class)
          .hasMessageContaining("404 notFound");
      assertThat(sleeper.waits()).isEmpty();
    }
  }
}
