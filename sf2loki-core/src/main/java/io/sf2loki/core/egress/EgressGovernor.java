package io.sf2loki.core.egress;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deployment-wide egress governor of one term (SPEC §10, EGR-1…EGR-14): a daily byte budget
 * with guarded UTC-day rollover, and lines/s and bytes/s token buckets served in arrival order. One
 * instance per term, shared by both lanes (PIPE-20, PIPE-25); thread-safe.
 *
 * <p>Lane protocol (PIPE-6/7): checkpoint-only batches bypass the governor. For any other batch,
 * call {@link #admit} once before the first push attempt (never per retry) with the batch's real
 * entries' UTF-8 line bytes before truncation/compression and its real-entry count (EGR-1); act on
 * the {@link Admission}; after each successful push call {@link #record} with the same byte count
 * and hand the returned token to the committer.
 *
 * <p>Time (SRC-26): the UTC day comes from the wall clock ({@link TimeSource#wall()}) and never
 * moves backward; bucket refills use the monotonic {@link TimeSource#ticker()}; every wait goes
 * through {@link TimeSource#sleeper()} with the caller's stop signal (EGR-13).
 *
 * <p>Metrics: {@code sf2loki_egress_budget_used_bytes} (the count, with a budget) and {@code
 * sf2loki_egress_paused} (1 while at least one batch is held by the budget, EGR-11). Budget drops
 * are counted by the pipeline, not here.
 */
public final class EgressGovernor {
  /** Checkpoint key of the budget count (SRC-15; never org-prefixed, ORG-8). */
  public static final String BUDGET_KEY = "egress:budget";

  /** Longest single sleep of a paused waiter (EGR-9). */
  public static final Duration DEFAULT_MAX_PAUSE_SLEEP = Duration.ofSeconds(60);

  /** Least time between two budget-drop WARNs (EGR-4). */
  public static final Duration DEFAULT_DROP_WARN_INTERVAL = Duration.ofSeconds(60);

  static final String PAUSE_ERROR =
      "daily byte budget exhausted; pausing pushes until next UTC midnight";
  static final String DROP_WARN =
      "daily byte budget exhausted; dropping batches until next UTC day";
  static final String WARN_80 = "daily byte budget 80% used";
  static final String CORRUPT_WARN = "stored egress budget is corrupt; counting from 0";

  private static final Logger log = LoggerFactory.getLogger(EgressGovernor.class);

  private final EgressSettings settings;
  private final TimeSource time;
  private final Sf2lokiMetrics metrics;
  private final Duration maxPauseSleep;
  private final long dropWarnIntervalNanos;
  private final long warnThreshold;
  private final TokenBuckets buckets; // null without a rate cap

  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private LocalDate day;
  private long used;
  private int paused;
  private LocalDate pauseErrorDay;
  private LocalDate warn80Day;
  private boolean dropWarned;
  private long dropWarnedAt;

  /**
   * A governor with the SPEC's 60 s pause-sleep cap and 60 s drop-WARN interval.
   *
   * @see #EgressGovernor(EgressSettings, TimeSource, Sf2lokiMetrics, Optional, Duration, Duration)
   */
  public EgressGovernor(
      EgressSettings settings,
      TimeSource time,
      Sf2lokiMetrics metrics,
      Optional<String> storedBudget) {
    this(
        settings, time, metrics, storedBudget, DEFAULT_MAX_PAUSE_SLEEP, DEFAULT_DROP_WARN_INTERVAL);
  }

  /**
   * Builds the term's governor (EGR-2: call at term start).
   *
   * @param settings the {@code sink.loki.egress} settings; with {@link EgressSettings#enabled()}
   *     false every batch is admitted at once and nothing is recorded
   * @param time wall clock (UTC day), ticker (buckets, WARN interval) and stop-aware sleeper
   * @param metrics the instance's instruments; the budget and paused gauges are set at once
   * @param storedBudget the stored {@code egress:budget} value, if any: its count is used only when
   *     its {@code date} equals today's UTC day; a corrupt value counts as 0 and logs WARN (EGR-2);
   *     ignored without a daily budget
   * @param maxPauseSleep longest single sleep of a paused waiter (EGR-9: 60 s), positive
   * @param dropWarnInterval least time between two drop WARNs on the ticker (EGR-4: 60 s)
   */
  public EgressGovernor(
      EgressSettings settings,
      TimeSource time,
      Sf2lokiMetrics metrics,
      Optional<String> storedBudget,
      Duration maxPauseSleep,
      Duration dropWarnInterval) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.time = Objects.requireNonNull(time, "time");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(storedBudget, "storedBudget");
    if (maxPauseSleep.isNegative() || maxPauseSleep.isZero()) {
      throw new IllegalArgumentException("maxPauseSleep must be positive");
    }
    this.maxPauseSleep = maxPauseSleep;
    this.dropWarnIntervalNanos = dropWarnInterval.toNanos();
    long budget = settings.dailyByteBudget();
    this.warnThreshold = budget / 5 * 4 + (budget % 5 * 4 + 4) / 5; // ceil(0.8 × budget)
    this.buckets =
        settings.hasRateCap()
            ? new TokenBuckets(
                settings.maxLinesPerSecond(),
                settings.maxBytesPerSecond(),
                time.ticker(),
                time.sleeper())
            : null;
    this.day = wallDay();
    this.used = settings.hasBudget() ? loadUsed(storedBudget) : 0;
    if (settings.hasBudget()) {
      metrics.egressBudgetUsedBytes.set(used);
      metrics.egressPaused.set(0);
    }
  }

  private long loadUsed(Optional<String> stored) {
    if (stored.isEmpty()) {
      return 0;
    }
    Optional<BudgetValue> value = BudgetValue.parse(stored.get());
    if (value.isEmpty()) {
      log.atWarn().addKeyValue("key", BUDGET_KEY).log(CORRUPT_WARN);
      return 0;
    }
    return value.get().date().equals(day) ? value.get().bytes() : 0;
  }

  /** The settings this governor was built from. */
  public EgressSettings settings() {
    return settings;
  }

  /**
   * Admits one batch (EGR-4): once per batch, before its first push attempt, never per retry.
   *
   * <p>With a daily budget: a guarded rollover (EGR-3), then the batch is admitted when the count
   * is 0 or count + {@code bytes} ≤ budget. Otherwise {@link BudgetAction#DROP} returns {@link
   * Admission#DROPPED} (WARN at most once per drop-WARN interval), and {@link BudgetAction#PAUSE}
   * holds the caller until the first UTC midnight after its pause began (EGR-5, EGR-9…EGR-12) and
   * then admits it without a second budget check. With rate caps the batch then waits in arrival
   * order for the token buckets (EGR-7).
   *
   * @param bytes UTF-8 line bytes of the batch's real entries before truncation and compression
   * @param lines number of real entries
   * @param stop the caller's (term's) stop signal; firing it during a pause or a rate wait releases
   *     the caller at once with {@link Admission#ABANDONED}
   * @return what to do with the batch. Interruption of the waiting thread is equivalent to stop
   *     (EGR-13): {@link Admission#ABANDONED} is returned with the thread's interrupt status set
   *     again, so the caller's next blocking call observes it. The paused count is released on
   *     every exit path (EGR-11).
   * @throws InterruptedException declared for callers' symmetry with other stop-aware waits; this
   *     implementation reports interruption as {@link Admission#ABANDONED} instead of throwing
   * @throws RuntimeException whatever the injected sleeper throws (the paused count is released)
   */
  public Admission admit(long bytes, long lines, StopSignal stop) throws InterruptedException {
    Objects.requireNonNull(stop, "stop");
    if (settings.hasBudget()) {
      Admission budget = admitBudget(bytes, stop);
      if (budget != Admission.ADMITTED) {
        return budget;
      }
    }
    if (buckets != null && !buckets.acquire(lines, bytes, stop)) {
      return Admission.ABANDONED;
    }
    return Admission.ADMITTED;
  }

  private Admission admitBudget(long bytes, StopSignal stop) {
    long budget = settings.dailyByteBudget();
    LocalDate pauseDay;
    lock.lock();
    try {
      rollover();
      if (used == 0 || (used <= budget && bytes <= budget - used)) {
        return Admission.ADMITTED;
      }
      if (settings.budgetAction() == BudgetAction.DROP) {
        warnDrop(bytes);
        return Admission.DROPPED;
      }
      pauseDay = day;
      paused++;
      if (paused == 1) {
        metrics.egressPaused.set(1);
      }
      if (!day.equals(pauseErrorDay)) {
        pauseErrorDay = day;
        log.atError()
            .addKeyValue("used_bytes", used)
            .addKeyValue("daily_byte_budget", budget)
            .addKeyValue("day", day.toString())
            .log(PAUSE_ERROR);
      }
    } finally {
      lock.unlock();
    }
    boolean released = false;
    try {
      released = awaitDayAfter(pauseDay, stop);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.lock();
      try {
        paused--;
        if (paused == 0) {
          metrics.egressPaused.set(0);
        }
      } finally {
        lock.unlock();
      }
    }
    return released ? Admission.ADMITTED : Admission.ABANDONED;
  }

  /**
   * The EGR-9 waiter loop: at the top of each iteration, before any sleep, compare the current UTC
   * day with the waiter's own pause day; once later, roll over (a no-op if someone already did) and
   * report release. Else sleep until the next UTC midnight or for at most the pause-sleep cap.
   *
   * @return true when released by rollover, false when stop cut a sleep short
   */
  private boolean awaitDayAfter(LocalDate pauseDay, StopSignal stop) throws InterruptedException {
    while (true) {
      Instant now = time.wall().instant();
      LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
      if (today.isAfter(pauseDay)) {
        lock.lock();
        try {
          rollover();
        } finally {
          lock.unlock();
        }
        return true;
      }
      Duration untilMidnight =
          Duration.between(now, today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
      Duration sleep = untilMidnight.compareTo(maxPauseSleep) < 0 ? untilMidnight : maxPauseSleep;
      if (!time.sleeper().sleep(sleep, stop)) {
        return false;
      }
    }
  }

  /**
   * Records the bytes of a successful push (EGR-6): guarded rollover, count += {@code bytes}, gauge
   * update, WARN once per UTC day when the count first reaches 80 % of the budget.
   *
   * @param bytes the same byte count that was passed to {@link #admit}
   * @return the {@code egress:budget} token {@code {"date": "<day>", "bytes": <count>}} captured
   *     under the governor's lock, for the committer (PIPE-9); empty without a daily budget.
   *     Captures of one governor are ordered by {@link BudgetValue#ORDER}: when two lanes hand
   *     tokens over in a different order than they were captured, the committer keeps the later
   *     capture with {@link BudgetValue#later(String, String)}.
   */
  public Optional<CheckpointToken> record(long bytes) {
    if (!settings.hasBudget()) {
      return Optional.empty();
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0");
    }
    lock.lock();
    try {
      rollover();
      used = used > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : used + bytes;
      metrics.egressBudgetUsedBytes.set(used);
      if (used >= warnThreshold && !day.equals(warn80Day)) {
        warn80Day = day;
        log.atWarn()
            .addKeyValue("used_bytes", used)
            .addKeyValue("daily_byte_budget", settings.dailyByteBudget())
            .addKeyValue("day", day.toString())
            .log(WARN_80);
      }
      return Optional.of(new CheckpointToken(BUDGET_KEY, new BudgetValue(day, used).toJson()));
    } finally {
      lock.unlock();
    }
  }

  /**
   * The EGR-8 readiness reason while at least one batch is held by the budget (EGR-11): {@code
   * degraded: daily byte budget exhausted, pushes paused until <YYYY-MM-DD>}, the date being the
   * UTC day after the governor's current day; empty otherwise.
   */
  public Optional<String> pausedReason() {
    lock.lock();
    try {
      if (paused == 0) {
        return Optional.empty();
      }
      return Optional.of(
          "degraded: daily byte budget exhausted, pushes paused until " + day.plusDays(1));
    } finally {
      lock.unlock();
    }
  }

  /** Batches currently held by the budget (the EGR-11 paused count). */
  public int pausedWaiters() {
    lock.lock();
    try {
      return paused;
    } finally {
      lock.unlock();
    }
  }

  /** The current budget count in bytes (0 without a budget). */
  public long usedBytes() {
    lock.lock();
    try {
      return used;
    } finally {
      lock.unlock();
    }
  }

  /** The governor's UTC day (never moves backward). */
  public LocalDate day() {
    lock.lock();
    try {
      return day;
    } finally {
      lock.unlock();
    }
  }

  /** Callers currently waiting for (or taking) rate tokens, EGR-7; 0 without rate caps. */
  public int rateWaiters() {
    return buckets == null ? 0 : buckets.waiting();
  }

  /** EGR-3 guarded rollover; caller holds the lock. */
  private void rollover() {
    LocalDate today = wallDay();
    if (today.isAfter(day)) {
      day = today;
      used = 0;
      if (settings.hasBudget()) {
        metrics.egressBudgetUsedBytes.set(0);
      }
    }
  }

  private void warnDrop(long bytes) {
    long now = time.ticker().nanoTime();
    if (dropWarned && now - dropWarnedAt < dropWarnIntervalNanos) {
      return;
    }
    dropWarned = true;
    dropWarnedAt = now;
    log.atWarn()
        .addKeyValue("batch_bytes", bytes)
        .addKeyValue("used_bytes", used)
        .addKeyValue("daily_byte_budget", settings.dailyByteBudget())
        .addKeyValue("day", day.toString())
        .log(DROP_WARN);
  }

  private LocalDate wallDay() {
    return LocalDate.ofInstant(time.wall().instant(), ZoneOffset.UTC);
  }
}
