package io.sf2loki.app.run;

import io.sf2loki.core.org.CommitWait;
import io.sf2loki.core.org.CommittedKeys;
import io.sf2loki.core.org.LegacyKeyRemoval;
import io.sf2loki.core.org.OrgCursorView;
import io.sf2loki.core.org.OrgIdGate;
import io.sf2loki.core.org.OrgScope;
import io.sf2loki.core.org.OrgStartupProbe;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The daemon's multi-org composition (SPEC ORG-1…ORG-13, STATE-18) over the org assemblies built by
 * {@link ProcessAssembly#orgs()}: one {@link OrgScope} per org, the ORG-7 startup probe, one
 * process-lifetime {@link OrgIdGate} per org (open at once for an org that passed the probe,
 * ORG-9), the {@link LegacyKeyRemoval} the term's committer writes through (ORG-10), one {@link
 * OrgCursorView} per org (ORG-4, ORG-5) and the ORG-13 {@link CommittedKeys}. Built and probed on
 * the daemon's thread; read by terms afterwards.
 */
final class MultiOrg {
  private final List<OrgAssembly> orgs;
  private final List<OrgScope> scopes = new ArrayList<>();
  private final LegacyKeyRemoval store;
  private final CommittedKeys committed;
  private final OrgStartupProbe probe;
  private final Sleeper sleeper;
  private final List<OrgIdGate> gates = new ArrayList<>();

  /**
   * @param orgs every org's assembly, in configuration order
   * @param store the deployment's one checkpoint store (STATE-18)
   * @param sleeper the stop-aware sleeper of the org-id backoff (ORG-3)
   */
  MultiOrg(List<OrgAssembly> orgs, CheckpointStore store, Sleeper sleeper) {
    this.orgs = List.copyOf(orgs);
    this.sleeper = sleeper;
    List<OrgStartupProbe.Org> probes = new ArrayList<>();
    for (int i = 0; i < this.orgs.size(); i++) {
      OrgAssembly o = this.orgs.get(i);
      scopes.add(new OrgScope(o.config().name(), o.config().salesforce().environment(), i == 0));
      probes.add(new OrgStartupProbe.Org(o.config().name(), o::probe, o::holdsValidToken));
    }
    this.store = new LegacyKeyRemoval(store);
    this.committed = new CommittedKeys(this.store);
    this.probe = new OrgStartupProbe(probes);
  }

  /**
   * ORG-7: probes every org at once; then opens the org-id gate of each org that passed and builds
   * a resolving gate for each that failed (its sources wait for it, ORG-3).
   *
   * @param stop the process stop signal
   * @return the outcome per org
   * @throws InterruptedException if interrupted
   */
  OrgStartupProbe.Result probe(StopSignal stop) throws InterruptedException {
    OrgStartupProbe.Result result = probe.run(stop);
    gates.clear();
    for (OrgAssembly o : orgs) {
      String name = o.config().name();
      String id = result.orgIds().get(name);
      gates.add(id != null ? OrgIdGate.known(name, id) : new OrgIdGate(name, o::orgId, sleeper));
    }
    return result;
  }

  /** ORG-7, ORG-12: {@code degraded: org <name> auth failing}, or empty. */
  Optional<String> degradation() {
    return probe.degradation();
  }

  /** The store the term's committer writes through (ORG-10). */
  CheckpointStore store() {
    return store;
  }

  /**
   * One per-term assembly per org, each reading cursors through its org's view and wrapping its
   * sources (ORG-3, ORG-4). Call after {@link #probe} and once the CPU pool exists.
   */
  List<TermSources> termSources(ProcessAssembly process, PollReporter board) {
    List<TermSources> out = new ArrayList<>();
    for (int i = 0; i < orgs.size(); i++) {
      out.add(termSources(i, process, board, store, committed));
    }
    return out;
  }

  /**
   * Org {@code i}'s per-term assembly over {@code orgStore} (under {@code per_org}: the ORG-10 view
   * of the org's own document, HA-29) with {@code drained} its ORG-13 wait.
   */
  TermSources termSources(
      int i,
      ProcessAssembly process,
      PollReporter board,
      LegacyKeyRemoval orgStore,
      CommitWait drained) {
    OrgScope scope = scopes.get(i);
    return new TermSources(
        orgs.get(i),
        process.watched(),
        process.cpu().executor(),
        orgs.get(i).metrics(), // OBS-4
        new OrgCursorView(scope, orgStore),
        prefixed(board, scope),
        new TermSources.Wrap(scope, gates.get(i), drained));
  }

  /** Org {@code i}'s own kinds' listener: its own keys, unprefixed (as {@link #commitListener}). */
  CommitListener commitListener(int i) {
    CommitListener own = orgs.get(i).commitListener();
    OrgScope scope = scopes.get(i);
    return written -> {
      Map<String, String> mine = own(written, scope);
      if (!mine.isEmpty()) {
        own.committed(mine);
      }
    };
  }

  /**
   * Each org's kinds' listeners hear the org's own keys, unprefixed (as in single-org, e.g. the
   * PS-15 replay-id dates), then ORG-13 waiters are woken. Call once the org's sources are built.
   */
  CommitListener commitListener() {
    List<CommitListener> perOrg = orgs.stream().map(OrgAssembly::commitListener).toList();
    return written -> {
      for (int i = 0; i < scopes.size(); i++) {
        Map<String, String> own = own(written, scopes.get(i));
        if (!own.isEmpty()) {
          perOrg.get(i).committed(own);
        }
      }
      committed.committed(written);
    };
  }

  /**
   * FEAT-3 in multi-org: the org's sources report under their stored key {@code org=<name>:<key>}
   * (ORG-4), so two orgs' sources with the same key keep separate rows, matching the commit times.
   */
  static PollReporter prefixed(PollReporter board, OrgScope org) {
    return new PollReporter() {
      @Override
      public void ok(String sourceId) {
        board.ok(org.prefixed(sourceId));
      }

      @Override
      public void failed(String sourceId, String errorClass, String message) {
        board.failed(org.prefixed(sourceId), errorClass, message);
      }

      @Override
      public void paused(String sourceId) {
        board.paused(org.prefixed(sourceId));
      }

      @Override
      public void skipped(String sourceId) {
        board.skipped(org.prefixed(sourceId));
      }

      @Override
      public String redact(String message) {
        return board.redact(message);
      }

      @Override
      public Throwable redactError(Throwable error) {
        return board.redactError(error);
      }
    };
  }

  /** The keys of {@code org} in {@code written}, without the prefix. */
  static Map<String, String> own(Map<String, String> written, OrgScope org) {
    Map<String, String> own = new LinkedHashMap<>();
    String prefix = org.keyPrefix();
    written.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            own.put(k.substring(prefix.length()), v);
          }
        });
    return own;
  }
}
