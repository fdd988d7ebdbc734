package io.sf2loki.core.pipeline;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.CheckpointStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The term's committer (SPEC PIPE-9): per key the last value of a batch wins, keys of the
 * abandoned-key set are filtered out (PIPE-16), and what remains is written with one store write.
 * Serialised: both lanes commit through the same instance.
 */
public final class Committer {
  private static final Logger log = LoggerFactory.getLogger(Committer.class);
  private final CheckpointStore store;
  private final AbandonedKeys abandoned;
  private final CommitListener listener;

  public Committer(CheckpointStore store, AbandonedKeys abandoned, CommitListener listener) {
    this.store = store;
    this.abandoned = abandoned;
    this.listener = listener;
  }

  /**
   * Commits the tokens of {@code entries} (real and checkpoint-only alike).
   *
   * @return the key → value map written (empty when nothing remained)
   * @throws io.sf2loki.core.spi.StateException when the store write fails (ends the term)
   */
  public synchronized Map<String, String> commit(List<LogEntry> entries) {
    Map<String, String> last = new LinkedHashMap<>();
    for (LogEntry e : entries) {
      last.put(e.checkpoint().key(), e.checkpoint().value());
    }
    last.keySet().removeIf(abandoned::contains);
    if (last.isEmpty()) {
      return last;
    }
    store.commitMany(last, Set.of());
    try {
      listener.committed(last);
    } catch (RuntimeException ex) {
      log.atDebug().setCause(ex).log("commit listener failed");
    }
    return last;
  }
}
