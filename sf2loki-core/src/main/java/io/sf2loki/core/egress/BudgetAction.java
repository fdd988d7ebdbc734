package io.sf2loki.core.egress;

/** What the governor does with a batch that would exceed the daily byte budget (SPEC EGR-4/5). */
public enum BudgetAction {
  /** Hold the batch until the next UTC midnight (EGR-5, EGR-9…EGR-12); the config default. */
  PAUSE,
  /** Refuse the batch; the pipeline counts it as dropped and commits (EGR-4). */
  DROP
}
