package io.sf2loki.sim.org;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The access tokens a {@link SimOrg} issued: issue times on the injected clock, the optional TTL,
 * explicit revocation and its listeners (AUTH-6, AUTH-7; the simulated Pub/Sub API ends streams
 * opened with a revoked token). Thread-safe.
 */
final class SimTokens {
  private final String orgId;
  private final InstantSource clock;
  private final Duration ttl;
  private final Map<String, Instant> tokens = new ConcurrentHashMap<>();
  private final List<Runnable> revocationListeners = new CopyOnWriteArrayList<>();

  /**
   * @param orgId the 18-character org id (its first 15 characters prefix every token)
   * @param ttl token lifetime per {@code clock}, or null (never expires)
   */
  SimTokens(String orgId, InstantSource clock, Duration ttl) {
    this.orgId = orgId;
    this.clock = clock;
    this.ttl = ttl;
  }

  /** {@link SimOrg#issueToken()}. */
  String issue() {
    String token =
        orgId.substring(0, 15)
            + "!"
            + Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII));
    tokens.put(token, clock.instant());
    return token;
  }

  /** {@link SimOrg#isTokenValid(String)}. */
  boolean isValid(String token) {
    if (token == null) {
      return false;
    }
    Instant issued = tokens.get(token);
    return issued != null && (ttl == null || clock.instant().isBefore(issued.plus(ttl)));
  }

  /** Invalidates every token, then runs the listeners. */
  void expireAll() {
    tokens.clear();
    revocationListeners.forEach(Runnable::run);
  }

  /** Invalidates {@code token} (unknown ones ignored), then runs the listeners. */
  void expire(String token) {
    tokens.remove(Objects.requireNonNull(token));
    revocationListeners.forEach(Runnable::run);
  }

  void onRevoked(Runnable listener) {
    revocationListeners.add(Objects.requireNonNull(listener));
  }
}
