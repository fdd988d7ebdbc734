package io.sf2loki.salesforce.elf;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.status.PollReporter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What every worker of one EventLogFile cycle shares (SPEC ELF-1): the server time read at the
 * cycle's start, its {@link CycleHandoff} and the poll reporter (FEAT-3, OBS-34).
 *
 * @param serverNow server now at the cycle's start (SRC-20)
 * @param handoff the cycle's single-slot hand-off to the run thread
 * @param reporter poll results and log redaction
 */
record ElfCycle(Instant serverNow, CycleHandoff handoff, PollReporter reporter) {
  /** Hands one entry to the run thread. */
  void put(LogEntry e) throws CycleStoppedException, InterruptedException {
    if (!handoff.put(e)) {
      throw new CycleStoppedException();
    }
  }

  /** Hands a group of entries to the run thread in one step. */
  void putGroup(List<LogEntry> group) throws CycleStoppedException, InterruptedException {
    if (!handoff.put(group)) {
      throw new CycleStoppedException();
    }
  }

  /** Waits for {@code f} unless the cycle closes first (then {@code f} is cancelled). */
  void await(CompletableFuture<?> f) throws CycleStoppedException, InterruptedException {
    if (!handoff.await(f)) {
      f.cancel(false);
      throw new CycleStoppedException();
    }
  }
}
