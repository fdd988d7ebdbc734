package io.sf2loki.app.run;

import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.term.TermFactory;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The daemon's {@link TermFactory} (SPEC PIPE-20): per term, the sources of every org ({@link
 * TermSources}), a fresh egress governor (EGR, its daily budget loaded from the store) and a fresh
 * pipeline over the process-lifetime sink and store (ORG-1: one pipeline for all orgs), whose lanes
 * are split per Loki identity group (PIPE-28).
 */
final class TermPipeline implements TermFactory {
  private final Sf2lokiConfig cfg;
  private final ProcessAssembly process;
  private final CheckpointStore store;
  private final List<TermSources> orgs;
  private final Map<String, String> staticLabels;
  private final CommitListener commits;
  private final ProgressWatch watch;
  private final EgressSettings egress;
  private final Sf2lokiMetrics egressMetrics;

  /**
   * @param process the process-lifetime sink, meters, limiter and clocks
   * @param store the store the term's committer writes through (multi-org: the ORG-10 {@code
   *     LegacyKeyRemoval} over the process's store)
   * @param orgs the per-term assembly of each org
   * @param staticLabels the stream labels of every entry, in order (PIPE-4)
   * @param commits told of every commit (gauges, status board, the kinds' listeners)
   * @param watch FEAT-21: producers and lane consumers register on it
   */
  TermPipeline(
      Sf2lokiConfig cfg,
      ProcessAssembly process,
      CheckpointStore store,
      List<TermSources> orgs,
      Map<String, String> staticLabels,
      CommitListener commits,
      ProgressWatch watch) {
    this(
        cfg,
        process,
        store,
        orgs,
        staticLabels,
        commits,
        watch,
        cfg.loki().egress(),
        process.metrics());
  }

  /**
   * One org's terms under {@code coordinate.per_org} (HA-29): as above with the org's share of the
   * egress limits (CFG-46) and its governor's gauges labelled with the org (OBS-38).
   *
   * @param egress the governor's settings
   * @param egressMetrics the governor's metrics
   */
  TermPipeline(
      Sf2lokiConfig cfg,
      ProcessAssembly process,
      CheckpointStore store,
      List<TermSources> orgs,
      Map<String, String> staticLabels,
      CommitListener commits,
      ProgressWatch watch,
      EgressSettings egress,
      Sf2lokiMetrics egressMetrics) {
    this.cfg = cfg;
    this.process = process;
    this.store = store;
    this.orgs = List.copyOf(orgs);
    this.staticLabels = staticLabels;
    this.commits = commits;
    this.watch = watch;
    this.egress = egress;
    this.egressMetrics = egressMetrics;
  }

  @Override
  public Pipeline newPipeline() {
    List<Source> sources = new ArrayList<>();
    Map<Source, String> groups = new IdentityHashMap<>(); // PIPE-28: lanes per Loki identity
    for (TermSources org : orgs) {
      String group = process.laneGroup(org.orgName());
      for (Source s : org.create()) {
        sources.add(s);
        groups.put(s, group);
      }
    }
    EgressGovernor governor =
        new EgressGovernor(
            egress,
            process.watched(), // FEAT-21: sleeps are waits
            egressMetrics,
            egress.hasBudget() ? store.load(EgressGovernor.BUDGET_KEY) : Optional.empty());
    return new Pipeline(
        cfg.pipeline().withStaticLabels(staticLabels),
        sources,
        process.sink(),
        store,
        process.metrics(),
        process.time(),
        process.limiter()::apply,
        commits,
        governor,
        watch, // FEAT-21: producers and lane consumers
        s -> groups.getOrDefault(s, ""));
  }
}
