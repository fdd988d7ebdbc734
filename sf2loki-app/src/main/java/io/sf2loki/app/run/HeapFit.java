package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import java.util.Locale;
import java.util.Optional;

/**
 * SPEC DEP-15: the startup check that the byte-bounded queues fit the JVM's maximum heap. The two
 * lane queues hold up to {@code sink.loki.batch.queue_max_bytes} each, charged at about 1.5 × in
 * Java objects (DEP-3), and every org's Pub/Sub bridge up to {@code bridge_max_bytes}; when their
 * sum exceeds {@link Runtime#maxMemory()} a burst can end in an {@code OutOfMemoryError} (with the
 * image's {@code -XX:+ExitOnOutOfMemoryError} the process exits and resumes from its checkpoints).
 * A bound of 0 is unbounded and not counted.
 */
final class HeapFit {
  private HeapFit() {}

  /**
   * @param cfg the configuration
   * @param maxHeapBytes the JVM's maximum heap, bytes ({@link Runtime#maxMemory()})
   * @return the WARN text when the bounds exceed the heap, else empty
   */
  static Optional<String> check(Sf2lokiConfig cfg, long maxHeapBytes) {
    long lanes = 3 * cfg.pipeline().queueMaxBytes(); // two lanes × 1.5 object overhead (DEP-3)
    long bridges = 0;
    for (OrgConfig org : cfg.orgs()) {
      if (org.sources().pubsub().enabled()) {
        bridges += org.sources().pubsub().source().bridgeMaxBytes();
      }
    }
    long bound = lanes + bridges;
    if (bound <= maxHeapBytes) {
      return Optional.empty();
    }
    String bridgePart =
        bridges == 0
            ? ""
            : String.format(
                Locale.ROOT,
                " and the Pub/Sub bridges (bridge_max_bytes, %d MiB in all)",
                bridges >> 20);
    return Optional.of(
        String.format(
            Locale.ROOT,
            "the lane queues (3 × sink.loki.batch.queue_max_bytes = %d MiB: two lanes, 1.5 × for Java"
                + " objects)%s can hold %d MiB, more than the JVM's maximum heap of %d MiB: a burst can"
                + " end in an OutOfMemoryError; lower them or raise the memory limit (DEP-3, DEP-15)",
            lanes >> 20,
            bridgePart,
            bound >> 20,
            maxHeapBytes >> 20));
  }
}
