package io.sf2loki.app.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The wall clock of the chaos cluster's daemon processes (SPEC FEAT-22's clock jump), moved with
 * libfaketime (Debian package {@code faketime}): each child JVM preloads {@code libfaketime.so.1}
 * and reads its offset from a shared timestamp file ({@code FAKETIME_TIMESTAMP_FILE}, re-read at
 * most every second), so both replicas always see the same wall clock; the monotonic clock is not
 * faked ({@code FAKETIME_DONT_FAKE_MONOTONIC=1}), as SRC-26 requires every wait to use it. The
 * offset only ever grows: every jump is forward. Not thread-safe: the run's thread owns it.
 */
final class FakeClock {
  private static final List<Path> LIBRARIES =
      List.of(
          Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
          Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
          Path.of("/usr/lib/faketime/libfaketime.so.1"));

  private final Path library;
  private final Path file;
  private long offsetSeconds;
  private int jumps;

  private FakeClock(Path library, Path file) {
    this.library = library;
    this.file = file;
  }

  /**
   * A clock whose timestamp file lives in {@code dir} (offset 0), or empty with a log line when
   * libfaketime is not installed (the clock-jump fault is then skipped).
   */
  static Optional<FakeClock> detect(Path dir) throws IOException {
    for (Path lib : LIBRARIES) {
      if (Files.isReadable(lib)) {
        FakeClock c = new FakeClock(lib, dir.resolve("faketime.rc"));
        c.write();
        return Optional.of(c);
      }
    }
    System.out.println(
        "chaos: libfaketime not found (Debian package faketime); the clock-jump fault and the"
            + " daily egress budget are skipped");
    return Optional.empty();
  }

  /** Environment of a child JVM that follows this clock. */
  Map<String, String> env() {
    return Map.of(
        "LD_PRELOAD",
        library.toString(),
        "FAKETIME_TIMESTAMP_FILE",
        file.toString(),
        "FAKETIME_DONT_FAKE_MONOTONIC",
        "1",
        "FAKETIME_CACHE_DURATION",
        "1");
  }

  /** The daemons' wall clock now. */
  Instant now() {
    return Instant.now().plusSeconds(offsetSeconds);
  }

  /** The next UTC midnight after the daemons' {@link #now()}. */
  Instant nextMidnight() {
    return now().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(1));
  }

  /**
   * Moves the daemons' wall clock forward to {@code target} (whole seconds; the children see it
   * within a second).
   *
   * @throws IllegalArgumentException when {@code target} is not after {@link #now()}
   */
  void jumpTo(Instant target) throws IOException {
    long delta = Duration.between(now(), target).toSeconds();
    if (delta <= 0) {
      throw new IllegalArgumentException("the fake clock only jumps forward: " + target);
    }
    offsetSeconds += delta;
    jumps++;
    write();
  }

  int jumps() {
    return jumps;
  }

  private void write() throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, "+" + offsetSeconds + "\n", StandardCharsets.US_ASCII);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
