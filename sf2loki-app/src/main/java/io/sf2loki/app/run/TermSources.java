package io.sf2loki.app.run;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.source.OrgTerm;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.salesforce.source.SourceFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The per-term assembly of one org (SPEC PIPE-20, ORG-2): for each term, a fresh SRC-24 ownership
 * registry, the org's {@link SourceContext} (time, CPU pool, metrics, read-only cursors, the org's
 * API gate) and one pass over the org's {@link SourceFactory source factories}; every source that
 * reports polls reports to the status board (FEAT-3, OBS-35). It knows no source kind. A multi-org
 * host builds one per {@link OrgAssembly} and reads cursors through the org's key-prefixing view
 * (ORG-4) instead of the store itself.
 */
final class TermSources {
  private final OrgAssembly org;
  private final TimeSource time;
  private final Executor cpu;
  private final Sf2lokiMetrics metrics;
  private final CheckpointStore store;
  private final PollReporter reporter;

  /**
   * @param org the org-scoped context (clients, gate, factories)
   * @param time the sources' clocks; their sleeper counts as a wait (FEAT-21)
   * @param cpu the bounded pool for CPU-bound work (PIPE-26)
   * @param metrics the instance's metrics
   * @param store read-only: the sources load their cursors from it
   * @param reporter the status board (FEAT-3)
   */
  TermSources(
      OrgAssembly org,
      TimeSource time,
      Executor cpu,
      Sf2lokiMetrics metrics,
      CheckpointStore store,
      PollReporter reporter) {
    this.org = org;
    this.time = time;
    this.cpu = cpu;
    this.metrics = metrics;
    this.store = store;
    this.reporter = reporter;
  }

  /** Fresh sources for one term, in kind order; none of them has run. */
  List<Source> create() {
    SourceContext context = new SourceContext(time, cpu, metrics, store::load, org.gate());
    OrgTerm term =
        new OrgTerm(context, org.api(), new OrgOwnership(org.config()), reporter); // SRC-24
    List<Source> sources = new ArrayList<>();
    for (SourceFactory f : org.factories()) {
      sources.addAll(f.create(term));
    }
    for (Source s : sources) {
      if (s instanceof ReportsPolls r) {
        r.reportTo(reporter); // FEAT-3, OBS-35: poll results to /statusz
      }
    }
    return sources;
  }
}
