package io.sf2loki.app.chaos;

import io.sf2loki.app.chaos.FaultCatalog.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A seeded, replayable list of fault steps (SPEC FEAT-22). Step {@code i} depends only on the seed:
 * the first {@link Kind#values()}{@code .length} steps are every fault once in a seeded order (so
 * even a bounded run covers the whole catalog), later ones are weighted draws ({@link
 * Kind#weight()}). Steps are drawn on demand, so a run bounded by time rather than by a step count
 * still replays exactly.
 */
final class ChaosSchedule {
  private static final List<String> ELF_TYPES = List.of("Login", "API", "URI");

  /**
   * One step.
   *
   * @param index 0-based position in the schedule
   * @param kind the fault
   * @param leader whether a process fault targets the leader (else the standby)
   * @param hold how long the fault stays injected before it is cleared
   * @param pubsubEvents events published on each topic after the step (new data while faults run)
   * @param objectRows LoginHistory rows added after the step
   * @param elfType EventType of the EventLogFile added after the step
   * @param elfRows rows of that file
   * @param apexLogs ApexLog records added after the step
   * @param kills {@code kill -9}s of a {@link Kind#KILL9} step (a crash loop in a long run: the
   *     current leader, or standby, again after a short hold); 1 otherwise
   */
  record Step(
      int index,
      Kind kind,
      boolean leader,
      Duration hold,
      int pubsubEvents,
      int objectRows,
      String elfType,
      int elfRows,
      int apexLogs,
      int kills) {
    @Override
    public String toString() {
      return String.format(
          "#%d %s%s%s hold=%dms then +%d events/topic +%d LoginHistory +%s file(%d rows) +%d"
              + " ApexLog",
          index,
          kind.label(),
          kills > 1 ? " x" + kills : "",
          kind.isProcessFault() ? (leader ? " @leader" : " @standby") : "",
          hold.toMillis(),
          pubsubEvents,
          objectRows,
          elfType,
          elfRows,
          apexLogs);
    }
  }

  private final long seed;
  private final Random random;
  private final List<Kind> coverage;
  private final List<Step> drawn = new ArrayList<>();
  private final int totalWeight;
  private final boolean longRun;

  /**
   * @param seed the schedule's seed
   * @param longRun weighted draws favour Loki storms ({@link Kind#weight(boolean)}) and a {@code
   *     kill -9} step kills 1–3 times, so a long run reaches the counts sooner
   */
  ChaosSchedule(long seed, boolean longRun) {
    this.seed = seed;
    this.longRun = longRun;
    this.random = new Random(seed);
    List<Kind> all = new ArrayList<>(Arrays.asList(Kind.values()));
    Collections.shuffle(all, random);
    this.coverage = List.copyOf(all);
    this.totalWeight = Arrays.stream(Kind.values()).mapToInt(k -> k.weight(longRun)).sum();
  }

  long seed() {
    return seed;
  }

  /** Step {@code i} (drawing the steps before it first). */
  synchronized Step step(int i) {
    while (drawn.size() <= i) {
      drawn.add(draw(drawn.size()));
    }
    return drawn.get(i);
  }

  private Step draw(int i) {
    Kind kind = i < coverage.size() ? coverage.get(i) : weighted();
    return new Step(
        i,
        kind,
        random.nextBoolean(),
        Duration.ofMillis(300 + random.nextInt(2200)),
        20 + random.nextInt(180),
        5 + random.nextInt(40),
        ELF_TYPES.get(random.nextInt(ELF_TYPES.size())),
        20 + random.nextInt(130),
        1 + random.nextInt(5),
        kind == Kind.KILL9 && longRun ? 1 + new Random(seed * 31 + i).nextInt(3) : 1);
  }

  private Kind weighted() {
    int r = random.nextInt(totalWeight);
    for (Kind k : Kind.values()) {
      r -= k.weight(longRun);
      if (r < 0) {
        return k;
      }
    }
    throw new IllegalStateException("weights");
  }

  /** The seed, how to replay it, and steps {@code 0..upTo-1}, one per line. */
  synchronized String describe(int upTo) {
    StringBuilder sb =
        new StringBuilder("chaos seed=")
            .append(seed)
            .append(" (replay: -Dchaos.seed=")
            .append(seed)
            .append(")\n");
    for (int i = 0; i < upTo; i++) {
      sb.append("  ").append(step(i)).append('\n');
    }
    return sb.toString();
  }
}
