package io.sf2loki.core.liveness;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wedge detection (SPEC FEAT-21): the long-running loops — a lane consumer, a source's producer
 * loop, a Pub/Sub topic reader — each {@link #register register} a {@link Beat} on their own
 * thread, mark {@link #progress()} as they go and mark themselves {@link #waiting()} while inside a
 * stop-aware wait (a sleeper wait, a full or empty queue, the server's next response). {@link
 * #wedged(Duration)} names the component that has for the longest time, and at least the timeout,
 * neither made progress nor been waiting; {@code /healthz} answers 503 with it.
 *
 * <p>Binding: a beat is bound to the thread that registered it, so the hooks inside queues and
 * sleepers ({@link #progress()}, {@link #waiting()}, {@link #watched(Sleeper)}) are static and need
 * no reference passed through every constructor; on a thread without a beat they do nothing. The
 * binding is a {@code ThreadLocal} (like OpenTelemetry's {@code Context}); it holds no shared data
 * — every beat belongs to one watch instance, which is per application.
 *
 * <p>Time is read on the injected {@link Ticker}. Thread safety: beats are written by their owner
 * thread and read (volatile) by the health server's threads; the registry is concurrent.
 */
public final class ProgressWatch {
  private static final ThreadLocal<Beat> CURRENT = new ThreadLocal<>();

  private final Ticker ticker;
  private final Set<Beat> beats = ConcurrentHashMap.newKeySet();

  /**
   * @param ticker monotonic clock the beats' ages are measured on
   */
  public ProgressWatch(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Registers {@code component} for the calling thread; its age starts now. Close the beat (on the
   * same thread) when the component ends.
   *
   * @param component the name in the {@code wedged: <component>} answer, e.g. {@code lane bulk}
   */
  public Beat register(String component) {
    Beat b = new Beat(Objects.requireNonNull(component, "component"), CURRENT.get());
    beats.add(b);
    CURRENT.set(b);
    return b;
  }

  /**
   * The {@code wedged: <component>} reason of the component stalest for at least {@code timeout}
   * (not waiting, no progress); empty when none is, or when {@code timeout} is zero (off).
   */
  public Optional<String> wedged(Duration timeout) {
    if (timeout.isZero() || timeout.isNegative()) {
      return Optional.empty();
    }
    long now = ticker.nanoTime();
    Beat stalest = null;
    long oldest = timeout.toNanos();
    for (Beat b : beats) {
      long age = now - b.last;
      if (b.waits == 0 && age >= oldest) {
        stalest = b;
        oldest = age;
      }
    }
    return stalest == null ? Optional.empty() : Optional.of("wedged: " + stalest.component);
  }

  /** Number of components currently registered. */
  public int size() {
    return beats.size();
  }

  /** Marks progress of the calling thread's beat, if it has one. */
  public static void progress() {
    Beat b = CURRENT.get();
    if (b != null) {
      b.last = b.watch().ticker.nanoTime();
    }
  }

  /**
   * Marks the calling thread's beat as inside a stop-aware wait until the returned handle is
   * closed, which counts as progress. Use with try-with-resources around the wait; nests.
   */
  public static Waiting waiting() {
    Beat b = CURRENT.get();
    if (b == null) {
      return Waiting.NONE;
    }
    b.waits++;
    return b::leaveWait;
  }

  /** {@code sleeper} whose waits count as stop-aware waits of the calling thread's beat. */
  public static Sleeper watched(Sleeper sleeper) {
    Objects.requireNonNull(sleeper, "sleeper");
    return (duration, stop) -> {
      try (Waiting w = waiting()) {
        return sleeper.sleep(duration, stop);
      }
    };
  }

  /** {@code time} with a {@link #watched(Sleeper) watched} sleeper. */
  public static TimeSource watched(TimeSource time) {
    return new TimeSource(time.wall(), time.ticker(), watched(time.sleeper()));
  }

  /** A stop-aware wait in progress; closing it ends the wait (and counts as progress). */
  @FunctionalInterface
  public interface Waiting extends AutoCloseable {
    /** For threads without a beat. */
    Waiting NONE = () -> {};

    @Override
    void close();
  }

  /** One component's liveness record, bound to the thread that registered it. */
  public final class Beat implements AutoCloseable {
    private final String component;
    private final Beat outer;
    private volatile long last;
    private volatile int waits; // written by the owner thread only

    private Beat(String component, Beat outer) {
      this.component = component;
      this.outer = outer;
      this.last = ticker.nanoTime();
    }

    private ProgressWatch watch() {
      return ProgressWatch.this;
    }

    private void leaveWait() {
      waits--;
      last = ticker.nanoTime();
    }

    /** The component name. */
    public String component() {
      return component;
    }

    /** Unregisters the component and unbinds it from the calling (owner) thread. */
    @Override
    public void close() {
      beats.remove(this);
      if (CURRENT.get() == this) {
        if (outer == null) {
          CURRENT.remove();
        } else {
          CURRENT.set(outer);
        }
      }
    }
  }
}
