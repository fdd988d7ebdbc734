package io.sf2loki.state.shard;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.lease.LeaseProtocol;
import java.time.Duration;
import java.util.Objects;

/**
 * One org's lease rules with the sharing rules in front (SPEC HA-28, HA-30): each acquisition
 * attempt first reads the lease into the {@link ReplicaView}, then competes only when the {@link
 * ShardBalance} allows it, else waits {@code renew_interval}. Renewal and release are the back
 * end's own.
 */
final class GatedProtocol implements LeaseProtocol {
  private final String org;
  private final LeaseProtocol inner;
  private final ReplicaView view;
  private final ShardBalance balance;
  private final Sleeper sleeper;
  private final Duration renewInterval;

  GatedProtocol(
      String org,
      LeaseProtocol inner,
      ReplicaView view,
      ShardBalance balance,
      Sleeper sleeper,
      Duration renewInterval) {
    this.org = Objects.requireNonNull(org, "org");
    this.inner = Objects.requireNonNull(inner, "inner");
    this.view = Objects.requireNonNull(view, "view");
    this.balance = Objects.requireNonNull(balance, "balance");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.renewInterval = Objects.requireNonNull(renewInterval, "renewInterval");
  }

  @Override
  public Observation observe() {
    Observation o = inner.observe();
    view.record(org, false, o);
    return o;
  }

  @Override
  public Won acquire(StopSignal stop) throws InterruptedException {
    Observation o = observe();
    if (o.live() && o.holder().filter(view.self()::equals).isEmpty()) {
      sleeper.sleep(renewInterval, stop); // a live holder: nothing to compete for
      return null;
    }
    if (!balance.mayAcquire(org)) {
      sleeper.sleep(renewInterval, stop);
      return null;
    }
    return inner.acquire(stop);
  }

  @Override
  public Renewal renew(long epoch, StopSignal stop) throws InterruptedException {
    return inner.renew(epoch, stop);
  }

  @Override
  public void release(long epoch) {
    inner.release(epoch);
  }

  @Override
  public String describe() {
    return inner.describe();
  }

  @Override
  public void close() {
    inner.close();
  }
}
