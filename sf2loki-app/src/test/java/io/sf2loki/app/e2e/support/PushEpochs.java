package io.sf2loki.app.e2e.support;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Attributes every Loki push of two or more replicas to an epoch and checks that no two processes
 * pushed in the same epoch (HA-4, HA-7, HA-18, HA-26).
 *
 * <p>The epoch of a push is the store's {@code __fence_epoch__} when the push reached the receiver.
 * With a file store that is exact in the product: a term claims its epoch in the store (HA-26) only
 * after taking the store's term lock, which the previous holder releases only after its term's
 * threads — pushes included — were joined (HA-18, STATE-5). So every push of epoch {@code e}
 * reaches Loki while the store holds {@code e}, and only the holder of {@code e} can push then.
 *
 * <p>The test sees the store only through samples. A sample whose read ended at or before the
 * arrival bounds the fence from below, one whose read began at or after it bounds it from above
 * (the fence never decreases). Pushes are taken in arrival order (one clock: the receivers and the
 * sampler run in the test JVM) and each gets the smallest epoch that (a) lies within those bounds,
 * (b) is not below the previous push's epoch, and (c) was acquired by the pushing process (from its
 * own "lease acquired" log lines). Greedy smallest is optimal for a non-decreasing assignment, so a
 * push without such an epoch proves a push outside the pushing process's epochs, or two processes'
 * pushes interleaved within one epoch. The check is as sharp as the sampling period.
 */
public final class PushEpochs {
  /** One push request as a receiver recorded it. */
  public record Push(Instant arrived, String holder) {}

  /**
   * The result.
   *
   * @param perEpoch pushes per epoch, per holder
   * @param problems pushes that fit no epoch of their process (empty when sound)
   */
  public record Result(NavigableMap<Long, Map<String, Integer>> perEpoch, List<String> problems) {}

  private PushEpochs() {}

  /**
   * Attributes {@code pushes}.
   *
   * @param samples the state samples, oldest first
   * @param owners the process that acquired each epoch (each epoch at most once)
   * @param pushes the push requests of every receiver, any order
   */
  public static Result attribute(
      List<StateSampler.Sample> samples, Map<Long, String> owners, List<Push> pushes) {
    List<Push> ordered = new ArrayList<>(pushes);
    ordered.sort(Comparator.comparing(Push::arrived));
    NavigableMap<Long, Map<String, Integer>> perEpoch = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    NavigableMap<Long, String> byEpoch = new TreeMap<>(owners);
    long previous = 0;
    for (Push p : ordered) {
      long lo = Math.max(previous, lowerBound(samples, p.arrived()));
      long hi = upperBound(samples, p.arrived());
      Long epoch = null;
      for (Map.Entry<Long, String> o : byEpoch.subMap(lo, true, hi, true).entrySet()) {
        if (o.getValue().equals(p.holder())) {
          epoch = o.getKey();
          break;
        }
      }
      if (epoch == null) {
        problems.add(
            p
                + ": no epoch of "
                + p.holder()
                + " within the store's fence bounds ["
                + lo
                + ", "
                + (hi == Long.MAX_VALUE ? "∞" : hi)
                + "] (previous push's epoch "
                + previous
                + ")");
        continue;
      }
      previous = epoch;
      perEpoch.computeIfAbsent(epoch, e -> new TreeMap<>()).merge(p.holder(), 1, Integer::sum);
    }
    return new Result(perEpoch, problems);
  }

  private static long lowerBound(List<StateSampler.Sample> samples, Instant t) {
    long lo = 0;
    for (StateSampler.Sample s : samples) {
      if (s.after().isAfter(t)) {
        break;
      }
      lo = Math.max(lo, s.fence());
    }
    return lo;
  }

  private static long upperBound(List<StateSampler.Sample> samples, Instant t) {
    for (StateSampler.Sample s : samples) {
      if (!s.before().isBefore(t)) {
        return s.fence();
      }
    }
    return Long.MAX_VALUE;
  }
}
