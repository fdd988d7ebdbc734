package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.LokiSinkSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Per-org Loki tenants (SPEC FEAT-6): a batch's real entries are split by their {@code org} label
 * (ORG-3) into one part per Loki identity — the org's own sink when its {@code orgs[].loki} differs
 * from {@code sink.loki}, else the deployment's — and each part is pushed through its sink as its
 * own request(s). Commit semantics stay per key: the lane commits the batch once every part was
 * delivered or deliberately dropped. A part that fails retryably fails the attempt; the batch's
 * retry pushes only the parts not yet settled (duplicates of nothing). A part rejected permanently
 * is dropped and counted with its reason (PIPE-8) while the other parts are delivered; when every
 * part was rejected the rejection is the batch's. In the daemon each lane carries one identity
 * group's entries (PIPE-28, ORG-15), so a batch has one part and a failing tenant holds only its
 * own lanes (ORG-16). While a part is pushed, the logging context names its orgs ({@code org},
 * SINK-20).
 *
 * <p>Thread-safe as its sinks are; a delivery is confined to the lane's consumer thread. {@link
 * #close()} closes every sink.
 */
final class TenantSplitSink implements Sink {
  private static final Logger log = LoggerFactory.getLogger(TenantSplitSink.class);
  private final Sink shared;
  private final Map<String, Sink> byOrg;

  /**
   * @param shared the deployment's sink ({@code sink.loki})
   * @param byOrg org name → the sink of each org whose identity differs from {@code sink.loki}
   */
  TenantSplitSink(Sink shared, Map<String, Sink> byOrg) {
    this.shared = Objects.requireNonNull(shared, "shared");
    this.byOrg = Map.copyOf(byOrg);
  }

  /**
   * PIPE-28: the identity group of every org whose Loki identity differs from {@code base}: the
   * name of the first org (configuration order) with the same tenant and token. Orgs that use
   * {@code base}'s identity are absent.
   *
   * @return org name → group name, in configuration order
   */
  static Map<String, String> identityGroups(List<OrgConfig> orgs, LokiSinkSettings base) {
    Map<List<String>, String> first = new HashMap<>();
    Map<String, String> out = new LinkedHashMap<>();
    for (OrgConfig org : orgs) {
      if (overrides(org, base)) {
        LokiSinkSettings own = org.loki().applyTo(base);
        List<String> identity = Arrays.asList(own.tenantId(), own.authToken());
        out.put(org.name(), first.computeIfAbsent(identity, k -> org.name()));
      }
    }
    return out;
  }

  /** FEAT-6: whether {@code org}'s Loki identity (tenant or token) differs from {@code base}. */
  static boolean overrides(OrgConfig org, LokiSinkSettings base) {
    LokiSinkSettings own = org.loki().applyTo(base);
    return !Objects.equals(own.tenantId(), base.tenantId())
        || !Objects.equals(own.authToken(), base.authToken());
  }

  @Override
  public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    return open(batch).push(singleAttempt, stop);
  }

  @Override
  public Delivery open(Batch batch) {
    return new Split(batch, null);
  }

  @Override
  public Delivery open(Batch batch, Retries retries) {
    return new Split(batch, retries);
  }

  @Override
  public void close() {
    Set<Sink> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
    distinct.addAll(byOrg.values()); // orgs of one identity share its sink (PIPE-28)
    distinct.forEach(TenantSplitSink::closeQuietly);
    closeQuietly(shared);
  }

  private static void closeQuietly(Sink s) {
    try {
      s.close();
    } catch (Exception e) {
      log.atWarn().setCause(e).log("error while closing a loki sink");
    }
  }

  private static void logRejected(Part p, PermanentSinkException e) {
    log.atError()
        .addKeyValue("org", p.orgs())
        .addKeyValue("entries", p.real())
        .addKeyValue("reason", e.reason())
        .addKeyValue("status", e.status())
        .addKeyValue("error", e.getMessage())
        .log("loki rejected one tenant's part of a batch permanently; entries dropped");
  }

  /**
   * One part: the entries of one identity and their delivery through its sink.
   *
   * @param orgs the part's orgs, sorted and comma-joined (OBS-39: its log lines name them)
   */
  private record Part(List<LogEntry> entries, int real, Delivery delivery, String orgs) {}

  private static String orgsOf(List<LogEntry> entries) {
    TreeSet<String> orgs = new TreeSet<>();
    for (LogEntry e : entries) {
      String org = e.labels().get("org");
      if (org != null) {
        orgs.add(org);
      }
    }
    return String.join(",", orgs);
  }

  /** One batch's delivery over its parts (FEAT-6). */
  private final class Split implements Delivery {
    private final List<Part> pending = new ArrayList<>();
    private final Map<String, Integer> dropped = new HashMap<>();
    private final Map<String, List<LogEntry>> named = new HashMap<>(); // FEAT-10
    private final int parts;
    private long bytes;
    private int rejected;
    private PermanentSinkException rejection;

    Split(Batch batch, Retries retries) {
      Map<Sink, List<LogEntry>> groups = new IdentityHashMap<>();
      Map<Sink, Boolean> order = new LinkedHashMap<>();
      for (LogEntry e : batch.realEntries()) {
        Sink s = byOrg.getOrDefault(e.labels().get("org"), shared);
        groups.computeIfAbsent(s, k -> new ArrayList<>()).add(e);
        order.putIfAbsent(s, Boolean.TRUE);
      }
      for (Sink s : order.keySet()) {
        Batch part = new Batch(groups.get(s));
        pending.add(
            new Part(
                part.realEntries(),
                part.realCount(),
                retries == null ? s.open(part) : s.open(part, retries),
                orgsOf(part.realEntries())));
      }
      parts = pending.size();
    }

    @Override
    public PushResult push(boolean singleAttempt, StopSignal stop)
        throws RetryableSinkException, PermanentSinkException, InterruptedException {
      Iterator<Part> it = pending.iterator();
      while (it.hasNext()) {
        Part p = it.next();
        try (MDC.MDCCloseable org = MDC.putCloseable("org", p.orgs())) { // OBS-39
          PushResult r = p.delivery().push(singleAttempt, stop); // a retryable failure escapes
          bytes += r.bodyBytes();
          r.droppedByReason().forEach((k, v) -> dropped.merge(k, v, Integer::sum));
          r.droppedEntries()
              .forEach((k, v) -> named.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
        } catch (PermanentSinkException e) {
          rejected++;
          rejection = e;
          dropped.merge(e.reason(), p.real(), Integer::sum);
          named.computeIfAbsent(e.reason(), x -> new ArrayList<>()).addAll(p.entries());
          if (parts > 1) {
            logRejected(p, e);
          }
        }
        it.remove(); // settled: a retry of the batch does not push it again
      }
      if (rejected == parts && rejection != null) {
        throw rejection; // every part rejected: the batch's rejection (PIPE-8)
      }
      return new PushResult(bytes, dropped, named);
    }
  }
}
