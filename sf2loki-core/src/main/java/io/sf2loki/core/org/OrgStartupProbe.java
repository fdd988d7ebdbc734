package io.sf2loki.core.org;

import io.sf2loki.core.time.StopSignal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The multi-org startup probe (SPEC ORG-7, ORG-12): every org's probe (mint a token, resolve the
 * org id; AUTH-9) runs at once, each on its own virtual thread that {@link #run} starts and joins.
 * If every org fails, the caller exits 1 with {@link Result#firstFailure()} (the first failed org
 * in configuration order); otherwise each failed org is logged at ERROR and {@link #degradation()}
 * answers {@code degraded: org <name> auth failing} for the first failed org in configuration order
 * that has not yet held a valid token. An org that held one once stays cleared (its later failures
 * are ORG-6's).
 *
 * <p>Thread-safe: {@link #degradation()} may be called from the health server at any time.
 */
public final class OrgStartupProbe {
  private static final Logger log = LoggerFactory.getLogger(OrgStartupProbe.class);

  /** One org's AUTH-9 probe. */
  @FunctionalInterface
  public interface Probe {
    /**
     * @param stop the process stop signal (ends the probe's waits and calls, CLI-3)
     * @return the org id
     * @throws Exception the authentication failure
     */
    String probe(StopSignal stop) throws Exception;
  }

  /**
   * One org to probe.
   *
   * @param name the org name
   * @param probe its probe, e.g. {@code stop -> { tokens.mint(stop); return ids.orgId(stop); }}
   * @param holdsValidToken whether the org's token provider holds a valid token now
   */
  public record Org(String name, Probe probe, BooleanSupplier holdsValidToken) {
    public Org {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(probe, "probe");
      Objects.requireNonNull(holdsValidToken, "holdsValidToken");
    }
  }

  /**
   * What the probe found.
   *
   * @param orgIds the org id of each org that passed, in configuration order
   * @param failures the failure of each org that failed, in configuration order
   */
  public record Result(Map<String, String> orgIds, Map<String, Exception> failures) {
    public Result {
      orgIds = Collections.unmodifiableMap(new LinkedHashMap<>(orgIds));
      failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }

    /** True when no org passed (ORG-7: exit 1). */
    public boolean allFailed() {
      return orgIds.isEmpty();
    }

    /** The failure of the first failed org in configuration order. */
    public Optional<Map.Entry<String, Exception>> firstFailure() {
      return failures.entrySet().stream().findFirst();
    }
  }

  private final List<Org> orgs;
  private final Set<String> failing = ConcurrentHashMap.newKeySet();

  /**
   * @param orgs every org, in configuration order (names unique)
   */
  public OrgStartupProbe(List<Org> orgs) {
    this.orgs = List.copyOf(orgs);
    if (this.orgs.isEmpty()) {
      throw new IllegalArgumentException("no org to probe");
    }
  }

  /**
   * Probes every org concurrently and waits for all of them.
   *
   * @param stop the process stop signal, handed to every probe
   * @return the outcome per org; when {@code stop} fired, probes it ended count as failures
   * @throws InterruptedException if interrupted (the probe threads are interrupted and joined)
   */
  public Result run(StopSignal stop) throws InterruptedException {
    int n = orgs.size();
    String[] ids = new String[n];
    Exception[] errors = new Exception[n];
    List<Thread> threads = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int k = i;
      Org org = orgs.get(i);
      threads.add(
          Thread.ofVirtual()
              .name("sf2loki-probe-" + org.name())
              .start(
                  () -> {
                    try {
                      ids[k] = Objects.requireNonNull(org.probe().probe(stop), "org id");
                    } catch (Exception e) {
                      errors[k] = e;
                    }
                  }));
    }
    joinAll(threads);
    Map<String, String> passed = new LinkedHashMap<>();
    Map<String, Exception> failed = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String name = orgs.get(i).name();
      if (errors[i] == null) {
        passed.put(name, ids[i]);
      } else {
        failed.put(name, errors[i]);
      }
    }
    Result result = new Result(passed, failed);
    if (!result.allFailed() && !stop.isStopped()) {
      failed.forEach(
          (name, e) -> {
            failing.add(name);
            log.atError()
                .addKeyValue("org", name)
                .addKeyValue("error", String.valueOf(e.getMessage()))
                .log("salesforce authentication failed for org; the other orgs start (ORG-7)");
          });
    }
    return result;
  }

  private static void joinAll(List<Thread> threads) throws InterruptedException {
    try {
      for (Thread t : threads) {
        t.join();
      }
    } catch (InterruptedException e) {
      threads.forEach(Thread::interrupt);
      for (Thread t : threads) {
        t.join(); // probes end at once on interrupt or stop; never leave one behind
      }
      throw e;
    }
  }

  /**
   * The ORG-7 readiness detail: {@code degraded: org <name> auth failing} for the first org in
   * configuration order that failed its probe and has not held a valid token since; empty
   * otherwise.
   */
  public Optional<String> degradation() {
    for (Org org : orgs) {
      if (!failing.contains(org.name())) {
        continue;
      }
      if (org.holdsValidToken().getAsBoolean()) {
        failing.remove(org.name()); // ORG-12: cleared once it held a valid token
        continue;
      }
      return Optional.of("degraded: org " + org.name() + " auth failing");
    }
    return Optional.empty();
  }
}
