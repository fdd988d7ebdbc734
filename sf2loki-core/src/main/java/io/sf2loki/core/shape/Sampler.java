package io.sf2loki.core.shape;

import io.sf2loki.core.settings.Setting;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Deterministic sampling of SPEC SRC-14 (keys per source: XF-9). Stateless and thread-safe.
 *
 * <p>With {@code rate >= 1} every record is kept; otherwise {@code bucket} = the first 8 bytes of
 * SHA-256(UTF-8 key) read as an unsigned big-endian 64-bit integer, modulo 10000, and the record is
 * kept iff {@code bucket < rate × 10000} (so a rate ≤ 0 or NaN keeps nothing).
 */
public final class Sampler {
  /** Definition of the {@code sample} key (SPEC §1.3). */
  public static final Setting RATE =
      Setting.number("sample", 1.0, "Sampling rate in (0, 1].", "SRC-14").greaterThan(0).atMost(1);

  private Sampler() {}

  /**
   * @param key the sampling key (XF-9)
   * @param rate the configured sample rate (fraction of records to keep)
   * @return whether the record is kept
   * @throws NullPointerException if {@code key} is null and {@code rate < 1}
   */
  public static boolean keep(String key, double rate) {
    if (rate >= 1.0) {
      return true;
    }
    return bucket(key) < rate * 10_000.0;
  }

  /**
   * @return the SRC-14 bucket of {@code key}, in 0…9999
   */
  public static int bucket(String key) {
    byte[] h = sha256().digest(key.getBytes(StandardCharsets.UTF_8));
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (h[i] & 0xFF);
    }
    return (int) Long.remainderUnsigned(v, 10_000L);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
