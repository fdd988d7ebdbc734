package io.sf2loki.state.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeaseDocumentTest {
  private static final Instant AT = Instant.parse("2026-12-02T07:00:00.250Z");

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("HA-9: the document is {holder, expires_at with offset, epoch} and round-trips")
  void roundTrip() {
    byte[] b = new LeaseDocument("host-1", AT, 7).serialise();
    assertThat(new String(b, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"holder\":\"host-1\",\"expires_at\":\"2026-12-02T07:00:00.250+00:00\",\"epoch\":7}");
    assertThat(LeaseDocument.parse(b)).contains(new LeaseDocument("host-1", AT, 7));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "not json",
        "[1,2]",
        "\"text\"",
        "{\"expires_at\":\"2026-12-02T07:00:00Z\",\"epoch\":1}",
        "{\"holder\":5,\"expires_at\":\"2026-12-02T07:00:00Z\"}",
        "{\"holder\":\"a\"}",
        "{\"holder\":\"a\",\"expires_at\":1764658800}",
        "{\"holder\":\"a\",\"expires_at\":\"yesterday\"}",
        "{\"holder\":\"a\",\"expires_at\":\"2026-12-02T07:00:00Z\"} trailing"
      })
  @DisplayName(
      "HA-9: invalid JSON, a non-object, a missing/ill-typed holder or expires_at, or an unparseable date is absent")
  void corruptIsAbsent(String text) {
    assertThat(LeaseDocument.parse(utf8(text))).isEmpty();
  }

  @Test
  @DisplayName("HA-9: a date without offset is UTC; another offset is honoured")
  void offsets() {
    assertThat(
            LeaseDocument.parse(
                utf8("{\"holder\":\"a\",\"expires_at\":\"2026-12-02T07:00:00.250\"}")))
        .map(LeaseDocument::expiresAt)
        .contains(AT);
    assertThat(
            LeaseDocument.parse(
                utf8("{\"holder\":\"a\",\"expires_at\":\"2026-12-02T08:00:00.250+01:00\"}")))
        .map(LeaseDocument::expiresAt)
        .contains(AT);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", ",\"epoch\":\"3\"", ",\"epoch\":2.5", ",\"epoch\":null", ",\"epoch\":true"})
  @DisplayName("HA-9: a missing or non-integer epoch is 0")
  void epochDefaultsToZero(String epoch) {
    assertThat(
            LeaseDocument.parse(
                utf8("{\"holder\":\"a\",\"expires_at\":\"2026-12-02T07:00:00Z\"" + epoch + "}")))
        .map(LeaseDocument::epoch)
        .contains(0L);
  }

  @Test
  @DisplayName("HA-10: expired iff now ≥ expires_at")
  void liveness() {
    LeaseDocument d = new LeaseDocument("a", AT, 1);
    assertThat(d.liveAt(AT.minusMillis(1))).isTrue();
    assertThat(d.liveAt(AT)).isFalse();
  }

  @Test
  @DisplayName("HA-9: file lease: missing → absent, corrupt → absent, an I/O error → unreadable")
  void fileReadOutcomes(@TempDir Path dir) throws Exception {
    Path p = dir.resolve("sub/leader.lease");
    FileLeaseStorage s = new FileLeaseStorage(p);
    assertThat(s.read().status()).isEqualTo(LeaseRead.Status.ABSENT);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "{garbage");
    assertThat(s.read().status()).isEqualTo(LeaseRead.Status.ABSENT);
    Path asDir = dir.resolve("isdir");
    Files.createDirectories(asDir);
    LeaseRead r = new FileLeaseStorage(asDir).read();
    assertThat(r.status()).isEqualTo(LeaseRead.Status.UNREADABLE);
    assertThat(r.error()).isNotNull();
  }

  @Test
  @DisplayName(
      "HA-9: file lease writes atomically: parent created, content replaced, no temp file left")
  void fileWriteAtomic(@TempDir Path dir) throws Exception {
    Path p = dir.resolve("a/b/leader.lease");
    FileLeaseStorage s = new FileLeaseStorage(p);
    s.write(new LeaseDocument("x", AT, 1).serialise(), null);
    s.write(new LeaseDocument("y", AT, 2).serialise(), null);
    assertThat(s.read().document()).contains(new LeaseDocument("y", AT, 2));
    try (var files = Files.list(p.getParent())) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly("leader.lease");
    }
  }

  @Test
  @DisplayName(
      "HA-10: verify delay = min(1 s, max(50 ms, 0.1 × renew_interval)); renew deadline = ttl − renew")
  void derivedDurations() {
    java.time.Duration lw = java.time.Duration.ofSeconds(5);
    assertThat(
            new LeaseSettings(
                    "a", java.time.Duration.ofSeconds(6), java.time.Duration.ofSeconds(2), lw)
                .verifyDelay())
        .hasMillis(200);
    assertThat(
            new LeaseSettings(
                    "a", java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(100), lw)
                .verifyDelay())
        .hasMillis(50);
    LeaseSettings big =
        new LeaseSettings(
            "a", java.time.Duration.ofSeconds(90), java.time.Duration.ofSeconds(30), lw);
    assertThat(big.verifyDelay()).hasSeconds(1);
    assertThat(big.renewDeadline()).hasSeconds(60);
  }
}
