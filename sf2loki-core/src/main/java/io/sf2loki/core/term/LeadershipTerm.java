package io.sf2loki.core.term;

import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.time.StopSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one leadership term (SPEC PIPE-20…PIPE-23): builds a fresh pipeline and sources through the
 * factory, installs it in the {@link ActiveTerm} holder, runs it until its sources finish or the
 * term's stop fires, then clears the holder and resets the store's cache. The term owns the
 * pipeline and every thread the pipeline started; it returns only after they were joined.
 */
public final class LeadershipTerm implements Coordinator.TermRunner {
  private static final Logger log = LoggerFactory.getLogger(LeadershipTerm.class);
  private final TermFactory factory;
  private final ActiveTerm holder;
  private final CheckpointStore store;

  public LeadershipTerm(TermFactory factory, ActiveTerm holder, CheckpointStore store) {
    this.factory = factory;
    this.holder = holder;
    this.store = store;
  }

  @Override
  public boolean runTerm(StopSignal termStop) throws Exception {
    Pipeline pipeline = factory.newPipeline();
    holder.install(pipeline);
    log.atInfo().log("leadership term started");
    try {
      return pipeline.run(termStop);
    } finally {
      holder.clear();
      store.reset();
      log.atInfo().log("leadership term ended");
    }
  }
}
