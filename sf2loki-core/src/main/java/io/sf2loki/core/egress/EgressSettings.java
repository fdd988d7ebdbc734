package io.sf2loki.core.egress;

import io.sf2loki.core.settings.Setting;
import java.util.List;
import java.util.Objects;

/**
 * The {@code sink.loki.egress.*} settings of the egress governor (SPEC EGR-1, CFG key reference).
 *
 * @param maxLinesPerSecond lines (real entries) per second, ≥ 0; 0 = no line cap (EGR-7)
 * @param maxBytesPerSecond UTF-8 line bytes per second, ≥ 0; 0 = no byte-rate cap (EGR-7)
 * @param dailyByteBudget UTF-8 line bytes per UTC day, ≥ 0; 0 = no budget (EGR-2…EGR-6)
 * @param budgetAction what to do with a batch that would exceed the budget (EGR-4/5)
 * @throws IllegalArgumentException when a number is negative or not finite
 */
public record EgressSettings(
    double maxLinesPerSecond,
    double maxBytesPerSecond,
    long dailyByteBudget,
    BudgetAction budgetAction) {
  /** Definition of the {@code max_lines_per_second} key (SPEC §1.3). */
  public static final Setting MAX_LINES_PER_SECOND =
      Setting.number("max_lines_per_second", 0, "Egress line rate cap; 0 = off.", "EGR-1")
          .atLeast(0);

  /** Definition of the {@code max_bytes_per_second} key (SPEC §1.3). */
  public static final Setting MAX_BYTES_PER_SECOND =
      Setting.number("max_bytes_per_second", 0, "Egress byte rate cap; 0 = off.", "EGR-1")
          .atLeast(0);

  /** Definition of the {@code daily_byte_budget} key (SPEC §1.3). */
  public static final Setting DAILY_BYTE_BUDGET =
      Setting.integer("daily_byte_budget", 0, "Bytes per UTC day; 0 = off.", "EGR-2").atLeast(0);

  /** Definition of the {@code budget_action} key (SPEC §1.3). */
  public static final Setting BUDGET_ACTION =
      Setting.choice(
          "budget_action",
          "pause",
          List.of("pause", "drop"),
          "What happens when the daily budget is spent.",
          "EGR-5");

  public EgressSettings {
    if (!(maxLinesPerSecond >= 0) || Double.isInfinite(maxLinesPerSecond)) {
      throw new IllegalArgumentException("maxLinesPerSecond must be a finite value >= 0");
    }
    if (!(maxBytesPerSecond >= 0) || Double.isInfinite(maxBytesPerSecond)) {
      throw new IllegalArgumentException("maxBytesPerSecond must be a finite value >= 0");
    }
    if (dailyByteBudget < 0) {
      throw new IllegalArgumentException("dailyByteBudget must be >= 0");
    }
    Objects.requireNonNull(budgetAction, "budgetAction");
  }

  /** All caps off (the config defaults): {@link #enabled()} is false. */
  public static EgressSettings disabled() {
    return new EgressSettings(0, 0, 0, BudgetAction.PAUSE);
  }

  /**
   * Whether a governor exists at all (EGR-1): any of the three limits is &gt; 0. When false the
   * pipeline need not build one (a governor built anyway admits everything at once).
   */
  public boolean enabled() {
    return maxLinesPerSecond > 0 || maxBytesPerSecond > 0 || dailyByteBudget > 0;
  }

  /**
   * One org's share under {@code coordinate.per_org} (SPEC CFG-46): every limit divided by {@code
   * parts} (the number of configured orgs), so the orgs' governors together never exceed the
   * configured deployment-wide limits, whichever replicas lead them. A limit that is on stays on:
   * the daily budget is at least 1 byte.
   *
   * @param parts the number of configured orgs, ≥ 1
   * @throws IllegalArgumentException when {@code parts} &lt; 1
   */
  public EgressSettings share(int parts) {
    if (parts < 1) {
      throw new IllegalArgumentException("parts must be >= 1");
    }
    long budget = dailyByteBudget == 0 ? 0 : Math.max(1, dailyByteBudget / parts);
    return new EgressSettings(
        maxLinesPerSecond / parts, maxBytesPerSecond / parts, budget, budgetAction);
  }

  /** Whether a daily byte budget is configured (EGR-2). */
  public boolean hasBudget() {
    return dailyByteBudget > 0;
  }

  /** Whether a lines/s or bytes/s cap is configured (EGR-7). */
  public boolean hasRateCap() {
    return maxLinesPerSecond > 0 || maxBytesPerSecond > 0;
  }
}
