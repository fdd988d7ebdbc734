package io.sf2loki.core.org;

import io.sf2loki.core.model.Lane;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The org wrapper of one source in multi-org mode (SPEC ORG-3, ORG-4, ORG-6, ORG-11). It keeps the
 * inner source's {@link #name()} and {@link #lane()}; {@link #run} waits for the org id ({@link
 * OrgIdGate}), then runs the inner source with an emitter that adds {@code org}, {@code
 * environment} and {@code sf_org_id} to every real entry and rewrites every checkpoint key to
 * {@code org=<name>:<key>} ({@link OrgEmitter}). The inner source reads its cursors through the
 * org's {@link OrgCursorView}; the factory passes it in.
 *
 * <p>ORG-6: a failure the {@code contained} predicate accepts (an {@code AuthException}) does not
 * end the term: it logs ERROR, waits 1 s doubling to 30 s (stop-aware, injected sleeper) and runs a
 * fresh inner instance from the factory, which reads the committed checkpoints. The delay starts
 * again at 1 s after an instance that emitted at least one entry (ORG-11). Before the fresh
 * instance starts, the wrapper waits until the store holds the last value the failed instance
 * emitted for each of its keys ({@link CommitWait}, ORG-13): its entries still queued in the lane
 * are committed first, so no stored checkpoint moves backwards. Any other failure escapes and ends
 * the term (PIPE-12). A contained failure once the term is stopping ends {@link #run} quietly (the
 * stop cancels the inner source's token calls, which then fail).
 *
 * <p>Built per term (PIPE-20); {@link #run} is called once, on the pipeline's producer thread.
 */
public final class OrgSource implements Source {
  private static final Logger log = LoggerFactory.getLogger(OrgSource.class);

  /** ORG-6: first restart delay. */
  public static final Duration INITIAL_DELAY = Duration.ofSeconds(1);

  /** ORG-6: the delay cap. */
  public static final Duration MAX_DELAY = Duration.ofSeconds(30);

  private final OrgScope org;
  private final OrgIdGate orgId;
  private final Supplier<? extends Source> factory;
  private final Predicate<Throwable> contained;
  private final Sleeper sleeper;
  private final CommitWait drained;
  private final Source first;
  private volatile int restarts;
  private volatile PollReporter reporter = PollReporter.NONE;

  /**
   * Builds the first inner instance at once (its name and lane are this wrapper's).
   *
   * @param org the org
   * @param orgId the org's process-lifetime org-id gate (shared by its sources)
   * @param factory builds a fresh inner source reading cursors through the org's {@link
   *     OrgCursorView}; called now and once per ORG-6 restart
   * @param contained the failures ORG-6 contains, e.g. {@code e -> e instanceof AuthException}
   * @param sleeper stop-aware sleeper of the restart backoff
   * @param drained ORG-13: waits until the failed instance's last emitted values are committed
   */
  public OrgSource(
      OrgScope org,
      OrgIdGate orgId,
      Supplier<? extends Source> factory,
      Predicate<Throwable> contained,
      Sleeper sleeper,
      CommitWait drained) {
    this.org = Objects.requireNonNull(org, "org");
    this.orgId = Objects.requireNonNull(orgId, "orgId");
    this.factory = Objects.requireNonNull(factory, "factory");
    this.contained = Objects.requireNonNull(contained, "contained");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.drained = Objects.requireNonNull(drained, "drained");
    this.first = Objects.requireNonNull(factory.get(), "factory returned null");
  }

  /**
   * FEAT-3: org-level failures (org-id resolution, ORG-6 authentication) are reported to {@code
   * reporter} under the org's row id {@link #ORG_ROW} (an org-scoped reporter prefixes it); {@link
   * PollReporter#NONE} until called.
   *
   * @return this
   */
  public OrgSource reportTo(PollReporter reporter) {
    this.reporter = Objects.requireNonNull(reporter, "reporter");
    return this;
  }

  /** The source id of org-level failures: empty, so an org-scoped reporter shows the org alone. */
  public static final String ORG_ROW = "";

  private void reportOrgFailure(String errorClass, Exception e) {
    reporter.failed(ORG_ROW, errorClass, String.valueOf(e.getMessage()));
  }

  @Override
  public String name() {
    return first.name();
  }

  @Override
  public Lane lane() {
    return first.lane();
  }

  /** The org. */
  public OrgScope org() {
    return org;
  }

  /** The first inner instance (e.g. to hand it the status board). */
  public Source inner() {
    return first;
  }

  /** ORG-6 restarts so far in this term. */
  public int restarts() {
    return restarts;
  }

  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
    String id = orgId.await(stop, e -> reportOrgFailure(contained.test(e) ? "auth" : "org_id", e));
    if (id == null) {
      return; // stopped before the org id was known
    }
    Source current = first;
    Duration delay = INITIAL_DELAY;
    while (true) {
      OrgEmitter wrapped = new OrgEmitter(emitter, org, org.labels(id));
      try {
        current.run(wrapped, stop);
        return;
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        if (!contained.test(e)) {
          throw e;
        }
        if (stop.isStopped()) {
          return; // a stop ends the inner source's calls with an auth failure (CLI-3)
        }
        if (wrapped.emitted() > 0) {
          delay = INITIAL_DELAY;
        }
        reportOrgFailure("auth", e);
        log.atError()
            .addKeyValue("org", org.name())
            .addKeyValue("source", current.name())
            .addKeyValue("retry_in", delay)
            .addKeyValue("error", String.valueOf(e.getMessage()))
            .log("org source failed authentication; restarting it from the committed checkpoints");
        if (!sleeper.sleep(delay, stop) || !drained.await(wrapped.lastValues(), stop)) {
          return; // stopped: during the backoff, or before the old entries were committed
        }
        delay = delay.multipliedBy(2).compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay.multipliedBy(2);
        current = Objects.requireNonNull(factory.get(), "factory returned null");
        restarts++;
      }
    }
  }
}
