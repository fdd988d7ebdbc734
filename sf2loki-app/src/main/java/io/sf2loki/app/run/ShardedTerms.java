package io.sf2loki.app.run;

import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.org.CommittedKeys;
import io.sf2loki.core.org.LegacyKeyRemoval;
import io.sf2loki.core.org.OrgDocumentStore;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.core.term.TermListener;
import io.sf2loki.core.term.TermManager;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.lease.LeaseCoordinator;
import io.sf2loki.state.shard.ShardedCoordinator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The daemon's terms under {@code coordinate.per_org} (SPEC HA-29, HA-31, HA-32, ORG-18): one
 * {@link TermManager} per org, each with a pipeline over only that org's sources that commits to
 * the org's own document (STATE-19) through the ORG-10 view, fenced by that org's lease epoch, and
 * the org's share of the egress limits (CFG-46). The {@link ShardedCoordinator} starts an org's
 * term when this replica wins the org's lease and ends it on loss, demotion or an HA-28 hand-over.
 * Sink, CPU pool, limiter, meters, health server and status board stay process-wide; {@link
 * ActiveTerm} holds every running term (HA-32).
 *
 * <p>Readiness (HA-31): {@code ready} (subject to OBS-8's degradations) while at least one org's
 * term runs, {@code standby} while none does; {@code sf2loki_leader} is 1 while at least one runs
 * and {@code sf2loki_leader{org}} per org (OBS-38).
 *
 * <p>Threads: {@link #run} runs the coordinator on the caller's thread (it owns one lease thread
 * per org and the seat's); each term runs on its manager's term thread. The listener state is held
 * by {@link OrgLeadership}.
 */
final class ShardedTerms {
  private final ShardedCoordinator coordinator;
  private final Sf2lokiMetrics metrics;
  private final OrgLeadership leadership;
  private final Map<String, TermManager> terms = new LinkedHashMap<>();

  /** The per-process parts every org's terms share. */
  record Shared(
      Sf2lokiConfig cfg,
      ProcessAssembly process,
      MultiOrg multi,
      List<OrgAssembly> orgs,
      Map<String, String> labels,
      SourceStatusBoard board,
      ProgressWatch watch,
      Readiness readiness,
      ActiveTerm activeTerm,
      StopSignal processStop,
      Daemon.OrgTerms events) {}

  /**
   * @param shared the process-wide parts
   * @param stores each org's document (configuration order)
   * @param coordinator the org leases (HA-27)
   */
  ShardedTerms(
      Shared shared, Map<String, OrgDocumentStore> stores, ShardedCoordinator coordinator) {
    this.coordinator = coordinator;
    this.metrics = shared.process().metrics();
    this.leadership = new OrgLeadership(shared.readiness(), v -> metrics.leader.set(v)); // HA-31
    EgressSettings share = shared.cfg().loki().egress().share(shared.orgs().size()); // CFG-46
    for (int i = 0; i < shared.orgs().size(); i++) {
      OrgAssembly org = shared.orgs().get(i);
      String name = org.config().name();
      terms.put(name, manager(shared, i, org, stores.get(name), share));
    }
  }

  private TermManager manager(
      Shared shared, int i, OrgAssembly org, OrgDocumentStore store, EgressSettings share) {
    String name = org.config().name();
    Sf2lokiMetrics own = metrics.forShard(name); // OBS-38
    LegacyKeyRemoval removal = new LegacyKeyRemoval(store); // ORG-10 on the org's document
    CommittedKeys committed = new CommittedKeys(removal); // ORG-13
    ProcessAssembly process = shared.process();
    CommitListener kinds = shared.multi().commitListener(i);
    CommitListener commits =
        written -> {
          process.gauges().committed(written);
          shared.board().committed(written);
          kinds.committed(written);
          committed.committed(written);
        };
    TermPipeline pipeline =
        new TermPipeline(
            shared.cfg(),
            process,
            removal,
            List.of(shared.multi().termSources(i, process, shared.board(), removal, committed)),
            shared.labels(),
            commits,
            shared.watch(),
            share,
            own); // OBS-38: egress gauges with org
    TermManager m =
        new TermManager(
            pipeline,
            shared.activeTerm(),
            removal,
            own, // OBS-38: sf2loki_leader{org}
            new OrgListener(org, shared.events()),
            shared.processStop(),
            LeaseCoordinator::demotable); // HA-5 per org
    m.bind(demoter(name));
    return m;
  }

  /** HA-5 for one org: a fenced write of its term demotes only that org's lease. */
  private Coordinator demoter(String org) {
    return new Coordinator() {
      @Override
      public void run(Leadership leadership, StopSignal stop) {
        throw new UnsupportedOperationException("the sharded coordinator runs the org leases");
      }

      @Override
      public boolean demote() {
        return coordinator.demote(org);
      }
    };
  }

  /**
   * Competes for every org until {@code processStop} fires, then drains every running term
   * (PIPE-13).
   *
   * @return how the process ends: the first crash in configuration order, else FINISHED when an
   *     org's sources all finished (HA-6), else STOPPED
   * @throws Exception when an org coordinator itself failed
   */
  TermManager.Outcome run(StopSignal processStop) throws Exception {
    try {
      coordinator.run(terms::get, processStop);
    } finally {
      terms.values().forEach(TermManager::finish);
    }
    TermManager.Outcome outcome = TermManager.Outcome.STOPPED;
    for (TermManager m : terms.values()) {
      if (m.outcome() == TermManager.Outcome.CRASHED) {
        return TermManager.Outcome.CRASHED;
      }
      if (m.outcome() == TermManager.Outcome.FINISHED) {
        outcome = TermManager.Outcome.FINISHED;
      }
    }
    return outcome;
  }

  /** The first crashed org term's failure, in configuration order. */
  Optional<Throwable> crash() {
    for (TermManager m : terms.values()) {
      if (m.crash().isPresent()) {
        return m.crash();
      }
    }
    return Optional.empty();
  }

  /** OBS-38: per org in configuration order, whether its term runs here and its epoch (else -1). */
  List<OrgLead> leads() {
    List<OrgLead> out = new ArrayList<>();
    Set<String> now = leadership.running();
    for (String org : terms.keySet()) {
      boolean leading = now.contains(org);
      out.add(new OrgLead(org, leading, leading ? coordinator.epoch(org) : -1));
    }
    return out;
  }

  /** One org's row in {@code /statusz} (OBS-38). */
  record OrgLead(String org, boolean leader, long epoch) {}

  /** HA-31: readiness and the unlabelled leader gauge follow the set of running org terms. */
  private final class OrgListener implements TermListener {
    private final OrgAssembly org;
    private final Daemon.OrgTerms events;

    OrgListener(OrgAssembly org, Daemon.OrgTerms events) {
      this.org = org;
      this.events = events;
    }

    @Override
    public void termStarted() {
      events.started(org.config().name());
      leadership.started(org.config().name());
      org.leading(); // OBS-12: the org's limits poller only while leading it
    }

    @Override
    public void termEnded() {
      org.notLeading();
      leadership.ended(org.config().name());
      events.ended(org.config().name());
    }

    @Override
    public void standby() {
      leadership.standby();
    }
  }
}
