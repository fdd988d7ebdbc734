package io.sf2loki.app.run;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.org.CommitWait;
import io.sf2loki.core.org.OrgIdGate;
import io.sf2loki.core.org.OrgScope;
import io.sf2loki.core.org.OrgSource;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.source.OrgTerm;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.salesforce.source.SourceFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The per-term assembly of one org (SPEC PIPE-20, ORG-2): for each term, a fresh SRC-24 ownership
 * registry, the org's {@link SourceContext} (time, CPU pool, metrics, read-only cursors, the org's
 * API gate) and one pass over the org's {@link SourceFactory source factories}; every source that
 * reports polls reports to the status board (FEAT-3, OBS-35). It knows no source kind.
 *
 * <p>Multi-org ({@link Wrap} given): the cursors are the org's key-prefixing view (ORG-4, ORG-5)
 * and every source is wrapped in an {@link OrgSource} (ORG-3, ORG-6, ORG-13); an ORG-6 restart asks
 * the same factory, with the same term context, for a fresh instance at the same position.
 */
final class TermSources {
  private final OrgAssembly org;
  private final TimeSource time;
  private final Executor cpu;
  private final Sf2lokiMetrics metrics;
  private final CheckpointStore store;
  private final PollReporter reporter;
  private final Wrap wrap; // null: single-org

  /**
   * The multi-org parts of one org.
   *
   * @param scope the org (labels, key prefix)
   * @param orgId its process-lifetime org-id gate (ORG-3, ORG-9)
   * @param drained ORG-13: a restart waits for the failed instance's entries to be committed
   */
  record Wrap(OrgScope scope, OrgIdGate orgId, CommitWait drained) {
    Wrap {
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(orgId, "orgId");
      Objects.requireNonNull(drained, "drained");
    }
  }

  /**
   * @param org the org-scoped context (clients, gate, factories)
   * @param time the sources' clocks; their sleeper counts as a wait (FEAT-21)
   * @param cpu the bounded pool for CPU-bound work (PIPE-26)
   * @param metrics the instance's metrics
   * @param store read-only: the sources load their cursors from it (multi-org: the org's view)
   * @param reporter the status board (FEAT-3)
   * @param wrap the multi-org parts, or null in single-org mode
   */
  TermSources(
      OrgAssembly org,
      TimeSource time,
      Executor cpu,
      Sf2lokiMetrics metrics,
      CheckpointStore store,
      PollReporter reporter,
      Wrap wrap) {
    this.org = org;
    this.time = time;
    this.cpu = cpu;
    this.metrics = metrics;
    this.store = store;
    this.reporter = reporter;
    this.wrap = wrap;
  }

  /** The org's configured name. */
  String orgName() {
    return org.config().name();
  }

  /** Fresh sources for one term, in kind order; none of them has run. */
  List<Source> create() {
    SourceContext context = new SourceContext(time, cpu, metrics, store::load, org.gate());
    OrgTerm term =
        new OrgTerm(context, org.api(), new OrgOwnership(org.config()), reporter); // SRC-24
    List<Source> sources = new ArrayList<>();
    for (SourceFactory f : org.factories()) {
      List<Source> made = f.create(term);
      for (int i = 0; i < made.size(); i++) {
        Source s = report(made.get(i));
        sources.add(wrap == null ? s : wrapped(f, term, made, i));
      }
    }
    return sources;
  }

  private Source report(Source s) {
    if (s instanceof ReportsPolls r) {
      r.reportTo(reporter); // FEAT-3, OBS-35: poll results to /statusz
    }
    return s;
  }

  /** ORG-3/ORG-6: the wrapper; its first instance is {@code made[i]}, restarts ask {@code f}. */
  private Source wrapped(SourceFactory f, OrgTerm term, List<Source> made, int i) {
    AtomicBoolean firstTaken = new AtomicBoolean();
    String name = made.get(i).name();
    return new OrgSource(
            wrap.scope(),
            wrap.orgId(),
            () -> {
              if (firstTaken.compareAndSet(false, true)) {
                return made.get(i);
              }
              List<Source> again = f.create(term);
              if (again.size() <= i || !again.get(i).name().equals(name)) {
                throw new IllegalStateException("source " + name + " could not be rebuilt (ORG-6)");
              }
              return report(again.get(i));
            },
            TermSources::authFailure,
            time.sleeper(),
            wrap.drained())
        .reportTo(reporter); // FEAT-3: org-level failures on the org's rows
  }

  /** ORG-6: an {@link AuthException}, possibly wrapped by a source's worker plumbing. */
  static boolean authFailure(Throwable e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth++ < 16; t = t.getCause()) {
      if (t instanceof AuthException) {
        return true;
      }
    }
    return false;
  }
}
