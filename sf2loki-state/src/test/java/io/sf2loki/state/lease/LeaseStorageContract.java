package io.sf2loki.state.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The lease-storage contract (SPEC HA-9, FEAT-7, HA-16) run on every back end: file, S3 (s3proxy)
 * and GCS (the JSON-API fake).
 */
abstract class LeaseStorageContract {
  static final Instant T0 = Instant.parse("2026-12-02T07:00:00Z");

  /** A fresh, unique lease name per test. */
  protected String name;

  @BeforeEach
  void freshName() {
    name = "leases/" + UUID.randomUUID() + ".lease";
  }

  /** The storage for {@link #name}. */
  protected abstract LeaseStorage storage();

  /** Stores {@code text} at {@link #name} as an outside writer would. */
  protected abstract void putRaw(String text) throws Exception;

  /** Whether writes are conditional on the version (object stores). */
  protected abstract boolean conditional();

  @Test
  @DisplayName("HA-9: a missing lease is absent")
  void missingIsAbsent() {
    try (LeaseStorage s = storage()) {
      LeaseRead r = s.read();
      assertThat(r.status()).isEqualTo(LeaseRead.Status.ABSENT);
      assertThat(r.version()).isNull();
    }
  }

  @Test
  @DisplayName("HA-9/FEAT-7: a written lease reads back exactly")
  void roundTrip() {
    try (LeaseStorage s = storage()) {
      LeaseDocument d = new LeaseDocument("me", T0, 3);
      s.write(d.serialise(), null);
      LeaseRead r = s.read();
      assertThat(r.status()).isEqualTo(LeaseRead.Status.PRESENT);
      assertThat(r.document()).contains(d);
      LeaseDocument next = new LeaseDocument("me", T0.plusSeconds(5), 3);
      s.write(next.serialise(), r.version());
      assertThat(s.read().document()).contains(next);
    }
  }

  @Test
  @DisplayName("HA-9: a corrupt lease is absent and can be claimed over (with its version)")
  void corruptIsAbsentAndClaimable() throws Exception {
    putRaw("{\"holder\": 12");
    try (LeaseStorage s = storage()) {
      LeaseRead r = s.read();
      assertThat(r.status()).isEqualTo(LeaseRead.Status.ABSENT);
      if (conditional()) {
        assertThat(r.version()).isNotNull();
      }
      s.write(new LeaseDocument("me", T0, 1).serialise(), r.version());
      assertThat(s.read().document()).contains(new LeaseDocument("me", T0, 1));
    }
  }

  @Test
  @DisplayName(
      "HA-16: a create-only write over an existing lease, or a write with a stale version, is a LeaseConflictException")
  void conditionalWrites() {
    if (!conditional()) {
      return; // the file back end settles races with the HA-10 verify delay instead
    }
    try (LeaseStorage s = storage()) {
      s.write(new LeaseDocument("a", T0, 1).serialise(), null);
      String v1 = s.read().version();
      assertThatThrownBy(() -> s.write(new LeaseDocument("b", T0, 2).serialise(), null))
          .isInstanceOf(LeaseConflictException.class);
      s.write(new LeaseDocument("a", T0.plusSeconds(1), 1).serialise(), v1);
      assertThatThrownBy(() -> s.write(new LeaseDocument("b", T0, 2).serialise(), v1))
          .isInstanceOf(LeaseConflictException.class);
      assertThat(s.read().document()).map(LeaseDocument::holder).contains("a");
    }
  }

  @Test
  @DisplayName(
      "HA-10/HA-11/HA-8: acquire, renew, lose to a foreign holder and release on this back end")
  void coordinatorCycle() throws Exception {
    FakeTime ft = new FakeTime(T0);
    MemoryLeaseStorage.Binding binding = new MemoryLeaseStorage.Binding();
    binding.fenceEpoch = 41;
    StopSignal stop = new StopSignal();
    LeaseSettings settings =
        new LeaseSettings("me", Duration.ofSeconds(6), Duration.ofSeconds(2), Duration.ZERO);
    try (LeaseCoordinator c =
        new LeaseCoordinator(
            "test", storage(), settings, binding, ft.timeSource(), LeaseEvents.none())) {
      assertThat(c.acquire(stop)).isTrue();
      assertThat(c.epoch()).isEqualTo(42);
      ft.advance(Duration.ofSeconds(2));
      assertThat(c.renewOnce(stop)).isNull();
      try (LeaseStorage peek = storage()) {
        assertThat(peek.read().document())
            .contains(new LeaseDocument("me", ft.now().plusSeconds(6), 42));
      }
    }
    try (LeaseStorage peek = storage()) {
      // close() released it: expires_at = now, same epoch
      assertThat(peek.read().document()).contains(new LeaseDocument("me", ft.now(), 42));
    }
    // a second replica takes the released lease over with the next epoch
    try (LeaseCoordinator other =
        new LeaseCoordinator(
            "test",
            storage(),
            new LeaseSettings("other", Duration.ofSeconds(6), Duration.ofSeconds(2), Duration.ZERO),
            binding,
            ft.timeSource(),
            LeaseEvents.none())) {
      assertThat(other.acquire(stop)).isTrue();
      assertThat(other.epoch()).isEqualTo(43);
    }
  }
}
