package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.SalesforceConfig;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.PemKeys;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import io.sf2loki.salesforce.source.PollGate;
import io.sf2loki.salesforce.source.SalesforceOrg;
import io.sf2loki.salesforce.source.SourceFactory;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One org's process-lifetime parts (SPEC ORG-2, PIPE-20): its Salesforce clients ({@link
 * OrgClients}: token provider, org-id resolver, REST client), its limits poller and API reserve
 * (OBS-12, OBS-21) and its source factories ({@link SourceKinds}), which hold the kinds'
 * process-lifetime parts such as the Pub/Sub channel. This is the org-scoped context the per-term
 * assembly ({@link TermSources}) takes; the daemon builds one per configured org (ORG-1, ORG-2).
 *
 * <p>Ownership: {@link #close()} stops the limits poller and closes the clients; the factories are
 * closed by the closer {@link #buildSources} returns. Thread-safe: the factories are published once
 * (volatile) before the first term; the rest is final.
 */
final class OrgAssembly implements AutoCloseable {
  private final OrgConfig config;
  private final Sf2lokiMetrics metrics;
  private final OrgClients clients;
  private final LimitsWiring limits; // null: salesforce.limits.enabled is false
  private final OrgTransforms transforms; // XF-1: compiled once per process
  private volatile List<SourceFactory> factories = List.of();

  /**
   * The checks of one org that need no network (CLI-4): the SRC-23 overlap guard and the private
   * key.
   *
   * @throws io.sf2loki.app.config.ConfigException for overlapping sources
   * @throws IllegalArgumentException when the private key cannot be parsed
   */
  static void check(OrgConfig org) {
    SourceOverlap.check(org); // SRC-23
    var auth = org.salesforce().auth();
    if (auth.privateKeyPem() != null) {
      PemKeys.parseRsaPrivateKey(auth.privateKeyPem());
    }
  }

  /**
   * Builds the clients and the limits poller (not started) without any network call.
   *
   * @param metrics the org's metrics (multi-org: the OBS-4 {@code forOrg} view)
   * @param time the process clocks; the limits poller waits on its sleeper
   * @throws IllegalArgumentException when the private key cannot be parsed
   */
  OrgAssembly(OrgConfig config, Sf2lokiMetrics metrics, TimeSource time, SpoolDirectory spool) {
    this.config = config;
    this.metrics = metrics;
    this.clients = new OrgClients(config, metrics, time, spool);
    SalesforceConfig.Limits l = config.salesforce().limits();
    this.limits = l.enabled() ? new LimitsWiring(l, clients.rest, metrics, time.sleeper()) : null;
    this.transforms = OrgTransforms.of(config, metrics);
  }

  /**
   * The startup probe (AUTH-9).
   *
   * @return the org id
   * @see OrgClients#probe(StopSignal)
   */
  String probe(StopSignal stop) throws AuthException, InterruptedException {
    return clients.probe(stop);
  }

  /**
   * Builds the org's source factories (Pub/Sub's channel among them).
   *
   * @param finite sources return once caught up (demo, tests)
   * @param wall wall clock of the factories' process-lifetime parts
   * @param watch FEAT-21 registry
   * @return closes the factories, in reverse order
   */
  AutoCloseable buildSources(boolean finite, InstantSource wall, ProgressWatch watch) {
    List<SourceFactory> built =
        SourceKinds.of(config, clients.api(), transforms, finite, wall, watch);
    factories = built;
    return () -> {
      for (SourceFactory f : built.reversed()) {
        f.close();
      }
    };
  }

  OrgConfig config() {
    return config;
  }

  /** The org's metrics (OBS-4: per-org series carry {@code org} in multi-org mode). */
  Sf2lokiMetrics metrics() {
    return metrics;
  }

  /** ORG-12: whether the org's token provider holds a valid token now. */
  boolean holdsValidToken() {
    return clients.tokens.holdsValidToken();
  }

  /** One org-id resolution attempt (AUTH-8; the configured {@code org_id} without a call). */
  String orgId(StopSignal stop) throws AuthException, InterruptedException {
    return clients.orgIds.orgId(stop);
  }

  /** The clients as the factories see them. */
  SalesforceOrg api() {
    return clients.api();
  }

  /** The org's source factories (empty before {@link #buildSources}). */
  List<SourceFactory> factories() {
    return factories;
  }

  /** The OBS-21 gate of the polling sources: the API reserve, or always open. */
  PollGate gate() {
    return limits == null ? PollGate.OPEN : limits.gate();
  }

  /** OBS-21: the API reserve's readiness degradation while it pauses the org. */
  Optional<String> apiReserve() {
    return limits == null ? Optional.empty() : limits.degradation();
  }

  /** The first readiness degradation a source kind reports (PS-6), in kind order. */
  Optional<String> sourceDegradation() {
    for (SourceFactory f : factories) {
      Optional<String> d = f.degradation();
      if (d.isPresent()) {
        return d;
      }
    }
    return Optional.empty();
  }

  /** The kinds' process-lifetime commit listeners (e.g. PS-15 replay-id dates), in kind order. */
  CommitListener commitListener() {
    List<CommitListener> listeners = new ArrayList<>();
    factories.forEach(f -> listeners.add(f.commitListener()));
    return written -> listeners.forEach(l -> l.committed(written));
  }

  /** A term started: the limits poller runs only while leading (OBS-12). */
  void leading() {
    if (limits != null) {
      limits.leading();
    }
  }

  /** A term ended: stop and join the limits poller. */
  void notLeading() {
    if (limits != null) {
      limits.notLeading();
    }
  }

  @Override
  public void close() {
    if (limits != null) {
      limits.close();
    }
    clients.close();
  }
}
