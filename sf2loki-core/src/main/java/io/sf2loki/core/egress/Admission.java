package io.sf2loki.core.egress;

/** Outcome of {@link EgressGovernor#admit}: what the lane does with the batch next. */
public enum Admission {
  /** Push the batch (after any budget pause and rate wait). */
  ADMITTED,
  /**
   * Budget exhausted with {@code budget_action=drop} (EGR-4): do not push; count the real entries
   * in {@code sf2loki_loki_entries_dropped{reason="budget"}} and commit (subject to PIPE-16).
   */
  DROPPED,
  /**
   * The caller's stop signal fired, or its thread was interrupted, during a budget pause (EGR-12)
   * or a rate wait (EGR-7): do not push and do not commit; abandon the batch (PIPE-14 (c)/(d)).
   */
  ABANDONED
}
