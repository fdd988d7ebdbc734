package io.sf2loki.salesforce.elf;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Deterministic sampling of SPEC SRC-14: with rate ≥ 1 keep; otherwise bucket = first 8 bytes of
 * SHA-256(UTF-8 key) as an unsigned big-endian 64-bit integer, modulo 10000; keep iff bucket &lt;
 * rate × 10000.
 */
final class ElfSampling {
  private ElfSampling() {}

  static boolean keep(String key, double rate) {
    if (rate >= 1) {
      return true;
    }
    byte[] d;
    try {
      d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xff);
    }
    long bucket = Long.remainderUnsigned(v, 10000);
    return bucket < rate * 10000;
  }
}
