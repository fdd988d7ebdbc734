package io.sf2loki.state.object;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.spi.StateConflictException;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.Fencing;
import io.sf2loki.state.testing.FaultingHttpFront;
import io.sf2loki.state.testing.FaultingHttpFront.Fault;
import io.sf2loki.state.testing.RecordingSleeper;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every object-store back end shares (SPEC STATE-7…STATE-13), run against each back
 * end's real wire protocol: subclasses supply a store on a real or faithfully faked service, raw
 * access to the object, and the service's own fault answers through a {@link FaultingHttpFront}.
 *
 * <p>Conflicts are driven deterministically (one writer's commit placed between another's read and
 * write), never by racing: the S3 fake is not atomic under concurrency (see the S3 subclass).
 */
public abstract class ObjectStoreContract {
  private static final AtomicInteger NAMES = new AtomicInteger();

  protected final RecordingSleeper sleeper = new RecordingSleeper();

  /** The object's name for this test (unique). */
  protected String key;

  @BeforeEach
  void newKey() {
    key = "sf2loki/state-" + NAMES.incrementAndGet() + ".json";
  }

  /** The STATE-9 policy with a recording sleeper and a seeded random. */
  protected StoreRetry retry() {
    return new StoreRetry(
        StoreRetry.DEFAULT_ATTEMPTS,
        StoreRetry.DEFAULT_MIN_WAIT,
        StoreRetry.DEFAULT_MAX_WAIT,
        sleeper,
        new SplittableRandom(7),
        new StopSignal());
  }

  /** A store on object {@link #key}, directly or through {@link #front()}. */
  protected ObjectCheckpointStore store(boolean viaFront) {
    return store(viaFront, Duration.ofSeconds(10));
  }

  /** As {@link #store(boolean)} with {@code timeout} bounding each request (STATE-14). */
  protected abstract ObjectCheckpointStore store(boolean viaFront, Duration timeout);

  /** Writes the object unconditionally, bypassing the store. */
  protected abstract void putRaw(String body);

  /** The object's content. */
  protected abstract String getRaw();

  /** {@code s3://bucket/key} or {@code gs://bucket/name}. */
  protected abstract String describe();

  protected abstract FaultingHttpFront front();

  /** The write request's method. */
  protected abstract String writeMethod();

  /** Three transient answers to reads. */
  protected abstract Fault[] transientReadFaults();

  /** Two transient answers to writes. */
  protected abstract Fault[] transientWriteFaults();

  /** A 503 to a write (not applied). */
  protected abstract Fault unavailableWrite();

  /** A permanent refusal of a write, and the text the error then carries. */
  protected abstract Fault permanentWrite();

  protected abstract String permanentWriteText();

  /** A write applied, then answered with a 5xx. */
  protected abstract Fault landedThenServerError();

  /** A precondition failure answered to a write. */
  protected abstract Fault preconditionFailed();

  @Test
  void state8_missingObjectIsEmptyAndTheFirstWriteIsCreateOnly() {
    try (ObjectCheckpointStore a = store(true)) {
      assertThat(a.load("pubsub:/event/LoginEventStream")).isEmpty();
      assertThat(a.version()).isEmpty();
      // another writer creates the object between our read and our create-only write
      putRaw("{\"other\":\"1\"}");
      a.commitMany(Map.of("k", "v"), Set.of());
      // STATE-13 (noop): re-read once, re-applied on top of the other writer's document
      assertThat(getRaw()).isEqualTo("{\"other\":\"1\",\"k\":\"v\"}");
      assertThat(a.version()).isPresent();
    }
    try (ObjectCheckpointStore fresh = store(false)) {
      assertThat(fresh.snapshot()).containsExactly(Map.entry("k", "v"), Map.entry("other", "1"));
    }
  }

  @Test
  void state8_writesAreConditionalOnTheCachedEtag() {
    try (ObjectCheckpointStore a = store(false)) {
      a.commitMany(Map.of("k", "1"), Set.of());
      String first = a.version().orElseThrow();
      a.commitMany(Map.of("k", "2"), Set.of());
      assertThat(a.version()).isPresent().isNotEqualTo(Optional.of(first));
      a.commitMany(Map.of("k", "2"), Set.of()); // unchanged: no write
      a.delete("missing"); // STATE-2: a missing key causes no write
      assertThat(getRaw()).isEqualTo("{\"k\":\"2\"}");
      // a stale ETag is refused by the service: an external edit makes the cached ETag stale
      putRaw("{\"k\":\"2\",\"operator\":\"x\"}");
      a.commitMany(Map.of("k", "3"), Set.of());
      // STATE-13: re-applied on top, the operator's key survives
      assertThat(getRaw()).isEqualTo("{\"k\":\"3\",\"operator\":\"x\"}");
    }
  }

  @Test
  void state8_aBodyThatIsNotJsonIsCorruptAndNeverOverwritten() {
    putRaw("not json at all");
    try (ObjectCheckpointStore a = store(false)) {
      assertThatThrownBy(() -> a.load("k"))
          .isInstanceOf(StateCorruptException.class)
          .hasMessageContaining(describe())
          .hasMessageContaining("is not valid JSON")
          .hasMessageContaining("copy it elsewhere, then delete it"); // STATE-14
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "v"), Set.of()))
          .isInstanceOf(StateCorruptException.class);
      assertThat(getRaw()).isEqualTo("not json at all");
    }
    putRaw("[\"an array\"]");
    try (ObjectCheckpointStore a = store(false)) {
      assertThatThrownBy(a::snapshot)
          .isInstanceOf(StateCorruptException.class)
          .hasMessageContaining("is not a JSON object");
    }
  }

  @Test
  void state13_aSecondWriterWithoutCoordinationIsFatalOnTheSecondConsecutiveConflict() {
    try (ObjectCheckpointStore a = store(false);
        ObjectCheckpointStore b = store(false)) {
      a.commitMany(Map.of("a", "1"), Set.of());
      b.commitMany(Map.of("b", "1"), Set.of()); // b's cache is fresh: no conflict yet
      a.commitMany(Map.of("a", "2"), Set.of()); // conflict 1 for a: re-applied
      assertThat(getRaw()).isEqualTo("{\"a\":\"2\",\"b\":\"1\"}");
      b.commitMany(Map.of("b", "2"), Set.of()); // conflict 1 for b: re-applied
      assertThatThrownBy(() -> a.commitMany(Map.of("a", "3"), Set.of())) // a's second in a row
          .isInstanceOf(StateConflictException.class)
          .hasMessageStartingWith(ObjectCheckpointStore.SECOND_WRITER);
      assertThat(getRaw()).isEqualTo("{\"a\":\"2\",\"b\":\"2\"}");
    }
  }

  @Test
  void state13_aChangedFenceEpochIsNotReapplied() {
    try (ObjectCheckpointStore a = store(false)) {
      a.commitMany(Map.of("a", "1"), Set.of());
      putRaw("{\"a\":\"9\",\"__fence_epoch__\":\"4\"}"); // a coordinated writer
      assertThatThrownBy(() -> a.commitMany(Map.of("a", "2"), Set.of()))
          .isInstanceOf(StateConflictException.class)
          .hasMessageStartingWith(ObjectCheckpointStore.SECOND_WRITER);
      assertThat(getRaw()).isEqualTo("{\"a\":\"9\",\"__fence_epoch__\":\"4\"}");
    }
  }

  @Test
  void state7_fencingStoresTheEpochAndRefusesAnOlderOne() {
    try (ObjectCheckpointStore a = store(false)) {
      a.fencing(new Fencing(() -> {}, () -> 3));
      a.commitMany(Map.of("k", "1"), Set.of());
      assertThat(getRaw()).isEqualTo("{\"k\":\"1\",\"__fence_epoch__\":\"3\"}");
      assertThat(a.load("__fence_epoch__")).isEmpty(); // STATE-12
      assertThat(a.snapshot()).containsOnlyKeys("k");
    }
    try (ObjectCheckpointStore old = store(false)) {
      old.fencing(new Fencing(() -> {}, () -> 2));
      assertThatThrownBy(() -> old.commitMany(Map.of("k", "stale"), Set.of()))
          .isInstanceOf(StateFenceException.class)
          .hasMessageContaining("epoch 3 > this term's epoch 2");
      old.fencing(
          new Fencing(
              () -> {
                throw new StateFenceException("not leader");
              },
              () -> 5));
      assertThatThrownBy(() -> old.commitMany(Map.of("k", "x"), Set.of()))
          .isInstanceOf(StateFenceException.class)
          .hasMessage("not leader");
    }
    try (ObjectCheckpointStore noop = store(false)) { // no fencing: the epoch is preserved
      noop.commitMany(Map.of("k", "2"), Set.of());
    }
    assertThat(getRaw()).isEqualTo("{\"k\":\"2\",\"__fence_epoch__\":\"3\"}");
  }

  @Test
  void state7_underALeaseCoordinatorAConflictIsNotReappliedAndDropsTheCache() {
    try (ObjectCheckpointStore a = store(false)) {
      a.fencing(new Fencing(() -> {}, () -> 1));
      a.commitMany(Map.of("k", "1"), Set.of());
      putRaw("{\"k\":\"other\",\"__fence_epoch__\":\"1\"}");
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "2"), Set.of()))
          .isInstanceOf(StateConflictException.class)
          .isNotInstanceOf(StateFenceException.class);
      assertThat(getRaw()).isEqualTo("{\"k\":\"other\",\"__fence_epoch__\":\"1\"}");
      assertThat(a.version()).isEmpty(); // dropped: the next term reads fresh
      assertThat(a.load("k")).contains("other");
    }
  }

  @Test
  void state9_transientFailuresAreRetriedWithBoundedRandomWaits() {
    try (ObjectCheckpointStore a = store(true)) {
      front().inject(transientReadFaults());
      int gets = front().requests("GET");
      assertThat(a.load("k")).isEmpty(); // 4th attempt succeeds
      assertThat(front().requests("GET") - gets)
          .isEqualTo(transientReadFaults().length + 1); // one GET reads a missing object
      front().inject(transientWriteFaults());
      a.commitMany(Map.of("k", "v"), Set.of());
      assertThat(getRaw()).isEqualTo("{\"k\":\"v\"}");
      assertThat(sleeper.waits())
          .hasSize(transientReadFaults().length + transientWriteFaults().length)
          .allSatisfy(w -> assertThat(w).isBetween(Duration.ofMillis(100), Duration.ofSeconds(2)));
    }
  }

  @Test
  void state9_givesUpAfterFourAttemptsAndDoesNotRetryPermanentErrors() {
    try (ObjectCheckpointStore a = store(true)) {
      a.load("k");
      for (int i = 0; i < 4; i++) {
        front().inject(unavailableWrite());
      }
      int puts = front().requests(writeMethod());
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "v"), Set.of()))
          .isInstanceOf(StateException.class)
          .hasMessageContaining("after 4 attempts");
      assertThat(front().requests(writeMethod()) - puts).isEqualTo(4);
      front().inject(permanentWrite());
      puts = front().requests(writeMethod());
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "v"), Set.of()))
          .isInstanceOf(StateException.class)
          .hasMessageContaining(permanentWriteText());
      assertThat(front().requests(writeMethod()) - puts).isEqualTo(1);
    }
  }

  @Test
  void state10_aWriteThatLandedDespiteAnErrorIsAdoptedOnTheFollowing412() {
    try (ObjectCheckpointStore a = store(true)) {
      a.commitMany(Map.of("k", "1"), Set.of());
      front().inject(landedThenServerError());
      int puts = front().requests(writeMethod());
      a.commitMany(Map.of("k", "2"), Set.of()); // retry gets 412: read shows our bytes
      assertThat(front().requests(writeMethod()) - puts).isEqualTo(2);
      assertThat(getRaw()).isEqualTo("{\"k\":\"2\"}");
      a.commitMany(Map.of("k", "3"), Set.of()); // the adopted ETag is current: no conflict
      assertThat(getRaw()).isEqualTo("{\"k\":\"3\"}");
    }
  }

  @Test
  void state10_aPreconditionFailureAfterAnUnknownOutcomeWithOtherContentIsAConflict() {
    try (ObjectCheckpointStore a = store(true)) {
      a.fencing(new Fencing(() -> {}, () -> 1)); // no STATE-13 re-apply: see the raw outcome
      a.commitMany(Map.of("k", "1"), Set.of());
      front().inject(unavailableWrite()); // did not land
      putRaw("{\"k\":\"theirs\",\"__fence_epoch__\":\"1\"}");
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "2"), Set.of()))
          .isInstanceOf(StateConflictException.class);
      assertThat(getRaw()).isEqualTo("{\"k\":\"theirs\",\"__fence_epoch__\":\"1\"}");
    }
  }

  @Test
  void state8_a412IsNeverRetriedBlindly() {
    try (ObjectCheckpointStore a = store(true)) {
      a.fencing(new Fencing(() -> {}, () -> 1));
      a.commitMany(Map.of("k", "1"), Set.of());
      front().inject(preconditionFailed());
      int puts = front().requests(writeMethod());
      int gets = front().requests("GET");
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "2"), Set.of()))
          .isInstanceOf(StateConflictException.class);
      assertThat(front().requests(writeMethod()) - puts).isEqualTo(1);
      assertThat(front().requests("GET") - gets).isZero();
    }
  }

  @Test
  void state14_aRequestWithoutAnswerTimesOutAndIsRetried() {
    try (ObjectCheckpointStore warm = store(true)) {
      warm.load("k"); // connections and classes warm: only the hung request may time out
    }
    try (ObjectCheckpointStore a = store(true, Duration.ofSeconds(2))) {
      front().inject(Fault.hang("GET"));
      int gets = front().requests("GET");
      assertThat(a.load("k")).isEmpty();
      assertThat(front().requests("GET") - gets).isEqualTo(2);
      front().inject(Fault.hang(writeMethod()));
      a.commitMany(Map.of("k", "v"), Set.of()); // unknown outcome, then a clean retry
      assertThat(getRaw()).isEqualTo("{\"k\":\"v\"}");
      assertThat(sleeper.waits()).hasSize(2);
    }
  }

  @Test
  void state10_aWriteThatLandedAfterTheRetriesGaveUpIsAdoptedByTheNextCommit() {
    try (ObjectCheckpointStore a = store(true)) {
      a.fencing(new Fencing(() -> {}, () -> 1)); // no STATE-13 re-apply to hide the outcome
      a.commitMany(Map.of("k", "1"), Set.of());
      front().inject(landedThenServerError(), unavailableWrite(), unavailableWrite());
      front().inject(unavailableWrite());
      assertThatThrownBy(() -> a.commitMany(Map.of("k", "2"), Set.of()))
          .isInstanceOf(StateException.class)
          .hasMessageContaining("after 4 attempts");
      assertThat(getRaw()).isEqualTo("{\"k\":\"2\",\"__fence_epoch__\":\"1\"}");
      a.commitMany(Map.of("k", "2", "j", "3"), Set.of()); // the committer's retry: no conflict
      assertThat(getRaw()).isEqualTo("{\"k\":\"2\",\"__fence_epoch__\":\"1\",\"j\":\"3\"}");
    }
  }
}
