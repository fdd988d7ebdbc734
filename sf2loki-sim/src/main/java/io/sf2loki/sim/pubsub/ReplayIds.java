package io.sf2loki.sim.pubsub;

import java.util.Optional;

/**
 * The simulator's replay id layout: 10 opaque bytes (like the captured ids in the CDC fixtures):
 * bytes 0–1 a big-endian per-topic prefix, bytes 2–7 a big-endian 48-bit sequence number, bytes 8–9
 * zero. Clients must treat them as opaque (PUBSUB_NOTES); only the simulator decodes them.
 */
final class ReplayIds {
  static final int LENGTH = 10;

  private ReplayIds() {}

  /** Encodes {@code seq} (0 ≤ seq < 2^48) for the topic with {@code prefix}. */
  static byte[] encode(int prefix, long seq) {
    byte[] b = new byte[LENGTH];
    b[0] = (byte) (prefix >>> 8);
    b[1] = (byte) prefix;
    for (int i = 0; i < 6; i++) {
      b[7 - i] = (byte) (seq >>> (8 * i));
    }
    return b;
  }

  /** The layout check: empty when malformed (wrong length or non-zero tail bytes). */
  static Optional<Parsed> parse(byte[] b) {
    if (b == null || b.length != LENGTH || b[8] != 0 || b[9] != 0) {
      return Optional.empty();
    }
    int prefix = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
    long seq = 0;
    for (int i = 2; i < 8; i++) {
      seq = (seq << 8) | (b[i] & 0xff);
    }
    return Optional.of(new Parsed(prefix, seq));
  }

  record Parsed(int prefix, long seq) {}
}
