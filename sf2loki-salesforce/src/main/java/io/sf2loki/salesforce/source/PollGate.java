package io.sf2loki.salesforce.source;

/**
 * Whether a polling source may call Salesforce for a poll that is due now (SPEC OBS-21). The
 * polling sources (eventlog_objects, eventlogfile, apexlog) ask it before each poll; a closed gate
 * skips that poll — no Salesforce call, no cursor or checkpoint change — and the poll is retried at
 * its next interval. Implementations are thread-safe and never block.
 */
@FunctionalInterface
public interface PollGate {
  /** A gate that is always open (no API reserve configured). */
  PollGate OPEN = () -> true;

  /** Whether a due poll may run now. */
  boolean open();
}
