package io.sf2loki.core.testing;

import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.time.StopSignal;
import java.util.List;

/** A finite test source that emits a fixed list of entries and returns. */
public final class ListSource implements Source {
  private final String name;
  private final Lane lane;
  private final List<LogEntry> entries;
  private volatile int emitted;

  public ListSource(String name, Lane lane, List<LogEntry> entries) {
    this.name = name;
    this.lane = lane;
    this.entries = List.copyOf(entries);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Lane lane() {
    return lane;
  }

  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
    for (LogEntry e : entries) {
      if (!emitter.emit(e)) {
        return;
      }
      emitted++;
    }
  }

  public int emitted() {
    return emitted;
  }
}
