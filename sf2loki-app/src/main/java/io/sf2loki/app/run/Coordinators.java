package io.sf2loki.app.run;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.CoordinateConfig;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.term.NoopCoordinator;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.gcs.GcsAuth;
import io.sf2loki.state.gcs.GcsBackend;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.k8s.K8sLeaseClient;
import io.sf2loki.state.k8s.K8sLeaseProtocol;
import io.sf2loki.state.lease.FileLeaseStorage;
import io.sf2loki.state.lease.LeaseCoordinator;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.lease.LeaseStorage;
import io.sf2loki.state.lease.LeaseStoreBinding;
import io.sf2loki.state.lease.ObjectLeaseStorage;
import io.sf2loki.state.s3.S3Backend;
import io.sf2loki.state.shard.ShardNames;
import io.sf2loki.state.shard.ShardedCoordinator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * Builds the configured coordinator ({@code coordinate.type}, SPEC HA-1, HA-2, HA-7…HA-15, FEAT-7)
 * over the daemon's checkpoint store.
 */
public final class Coordinators {
  static final AttributeKey<String> OPERATION = AttributeKey.stringKey("operation");

  private Coordinators() {}

  /**
   * The coordinator with what the term manager and the daemon need from it.
   *
   * @param coordinator runs leadership (HA-1)
   * @param demotable which term failures demote instead of exiting (HA-5); none under noop
   * @param closer releases the lease after the last term ended (HA-11); a no-op under noop
   */
  public record Built(
      Coordinator coordinator, Predicate<Throwable> demotable, AutoCloseable closer) {}

  /** Whether {@code type} uses a lease (the file store then locks per term, STATE-5). */
  public static boolean leased(CoordinateConfig.Type type) {
    return type != CoordinateConfig.Type.NOOP;
  }

  /**
   * @param c {@code coordinate}
   * @param shutdownGrace {@code service.shutdown_grace}: the term-lock wait is this + 5 s (STATE-5)
   * @param store the daemon's store (file store opened in term-lock mode under a lease)
   * @param time wall clock, ticker, sleeper
   * @param metrics {@code sf2loki_lease_errors}, {@code sf2loki_lease_surrenders}
   * @throws ConfigException for an invalid endpoint or an unreadable {@code kubeconfig}
   * @throws IllegalArgumentException for {@code per_org} (see {@link #sharded})
   */
  public static Built build(
      CoordinateConfig c,
      Duration shutdownGrace,
      CheckpointStore store,
      TimeSource time,
      Sf2lokiMetrics metrics) {
    if (c.perOrg()) {
      throw new IllegalArgumentException("per_org is built by sharded(...)");
    }
    Duration lockWait = shutdownGrace.plusSeconds(5);
    return switch (c.type()) {
      case NOOP -> new Built(new NoopCoordinator(), t -> false, () -> {});
      case FILE_LEASE -> {
        CoordinateConfig.FileLease f = c.fileLease();
        yield lease(
            "file_lease",
            new FileLeaseStorage(f.path()),
            f.lease().resolve(lockWait, LeaseSettings::defaultHolderId),
            store,
            time,
            metrics);
      }
      case S3_LEASE -> {
        CoordinateConfig.S3Lease s = c.s3Lease();
        yield lease(
            "s3_lease",
            new ObjectLeaseStorage(new S3Backend(s.object())),
            s.lease().resolve(lockWait, LeaseSettings::defaultHolderId),
            store,
            time,
            metrics);
      }
      case GCS_LEASE -> {
        CoordinateConfig.GcsLease g = c.gcsLease();
        GcsStoreSettings settings = g.object();
        yield lease(
            "gcs_lease",
            new ObjectLeaseStorage(new GcsBackend(settings, GcsAuth.of(settings))),
            g.lease().resolve(lockWait, LeaseSettings::defaultHolderId),
            store,
            time,
            metrics);
      }
      case K8S_LEASE -> k8s(c.k8sLease(), lockWait, store, time, metrics);
    };
  }

  /**
   * The sharded coordinator with its closer (releases every org lease and the seat, then the
   * Kubernetes connection).
   */
  public record Sharded(ShardedCoordinator coordinator, AutoCloseable closer) {}

  /**
   * {@code coordinate.per_org: true} (HA-27…HA-30, CFG-43): one lease per org over that org's own
   * document (STATE-19: its epoch is the document's {@code __fence_epoch__}) and one seat per
   * replica, on {@code file_lease} or {@code k8s_lease}.
   *
   * @param stores each org's own document, by org name in configuration order
   * @throws ConfigException for another {@code coordinate.type} or an unreadable {@code kubeconfig}
   */
  public static Sharded sharded(
      CoordinateConfig c,
      Duration shutdownGrace,
      Map<String, CheckpointStore> stores,
      TimeSource time,
      Sf2lokiMetrics metrics) {
    Duration lockWait = shutdownGrace.plusSeconds(5);
    List<String> orgs = List.copyOf(stores.keySet());
    LeaseEvents events = events(metrics);
    Function<String, LeaseStoreBinding> binding = o -> LeaseStoreBinding.of(stores.get(o), time);
    switch (c.type()) {
      case FILE_LEASE -> {
        CoordinateConfig.FileLease f = c.fileLease();
        LeaseSettings s = f.lease().resolve(lockWait, LeaseSettings::defaultHolderId);
        ShardedCoordinator.Leases leases =
            leases(
                o ->
                    LeaseProtocol.document(
                        new FileLeaseStorage(ShardNames.fileOrg(f.path(), o)),
                        s,
                        binding.apply(o),
                        time,
                        events),
                i ->
                    LeaseProtocol.document(
                        new FileLeaseStorage(ShardNames.fileSeat(f.path(), i)),
                        s,
                        LeaseStoreBinding.none(),
                        time,
                        events),
                binding);
        ShardedCoordinator sc =
            new ShardedCoordinator(
                "file_lease", orgs, c.maxOrgsPerReplica(), s, leases, time, events);
        return new Sharded(sc, sc);
      }
      case K8S_LEASE -> {
        CoordinateConfig.K8sLease k = c.k8sLease();
        LeaseSettings s = k.lease().resolve(lockWait, Coordinators::podName);
        K8sLeaseClient client = connect(k);
        ShardedCoordinator.Leases leases =
            leases(
                o ->
                    new K8sLeaseProtocol(
                        client.named(ShardNames.k8sOrg(k.name(), o)),
                        s,
                        binding.apply(o),
                        time,
                        events),
                i ->
                    new K8sLeaseProtocol(
                        client.named(ShardNames.k8sSeat(k.name(), i)),
                        s,
                        LeaseStoreBinding.none(),
                        time,
                        events),
                binding);
        ShardedCoordinator sc =
            new ShardedCoordinator(
                "k8s_lease", orgs, c.maxOrgsPerReplica(), s, leases, time, events);
        return new Sharded(
            sc,
            () -> {
              try {
                sc.close();
              } finally {
                client.close();
              }
            });
      }
      default ->
          throw new ConfigException( // CFG-43: checked at load; a config built otherwise
              List.of(
                  new ConfigException.Problem(
                      "coordinate.per_org", "needs coordinate.type file_lease or k8s_lease")));
    }
  }

  private static ShardedCoordinator.Leases leases(
      Function<String, LeaseProtocol> org,
      IntFunction<LeaseProtocol> seat,
      Function<String, LeaseStoreBinding> store) {
    return new ShardedCoordinator.Leases() {
      @Override
      public LeaseProtocol org(String o) {
        return org.apply(o);
      }

      @Override
      public LeaseProtocol seat(int i) {
        return seat.apply(i);
      }

      @Override
      public LeaseStoreBinding store(String o) {
        return store.apply(o);
      }
    };
  }

  private static K8sLeaseClient connect(CoordinateConfig.K8sLease k) {
    try {
      return K8sLeaseClient.connect(k.namespace(), k.name(), k.kubeconfig(), k.renewInterval());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          List.of(new ConfigException.Problem("coordinate.k8s_lease.kubeconfig", e.getMessage())));
    }
  }

  /**
   * {@code coordinate.k8s_lease} (HA-12…HA-15): the Lease {@code namespace/name} through a fabric8
   * client from {@code kubeconfig} or the automatic (in-cluster) configuration, each request
   * bounded by {@code renew_interval}.
   */
  private static Built k8s(
      CoordinateConfig.K8sLease k,
      Duration lockWait,
      CheckpointStore store,
      TimeSource time,
      Sf2lokiMetrics metrics) {
    LeaseSettings settings = k.lease().resolve(lockWait, Coordinators::podName);
    K8sLeaseClient client = connect(k);
    LeaseStoreBinding binding = LeaseStoreBinding.of(store, time);
    LeaseEvents events = events(metrics);
    LeaseCoordinator c =
        new LeaseCoordinator(
            "k8s_lease",
            new K8sLeaseProtocol(client, settings, binding, time, events),
            settings,
            binding,
            time,
            events);
    return new Built(c, LeaseCoordinator::demotable, c);
  }

  /** {@code coordinate.k8s_lease.identity} {@code ""} = {@code $HOSTNAME} (the pod name). */
  private static String podName() {
    String host = System.getenv("HOSTNAME");
    return host == null || host.isBlank() ? LeaseSettings.defaultHolderId() : host;
  }

  private static Built lease(
      String type,
      LeaseStorage storage,
      LeaseSettings settings,
      CheckpointStore store,
      TimeSource time,
      Sf2lokiMetrics metrics) {
    LeaseCoordinator c =
        new LeaseCoordinator(
            type, storage, settings, LeaseStoreBinding.of(store, time), time, events(metrics));
    return new Built(c, LeaseCoordinator::demotable, c);
  }

  private static LeaseEvents events(Sf2lokiMetrics m) {
    return new LeaseEvents() {
      @Override
      public void error(String operation) {
        m.leaseErrors.add(1, Attributes.of(OPERATION, operation));
      }

      @Override
      public void surrendered(String reason) {
        m.leaseSurrenders.add(1, Attributes.of(Sf2lokiMetrics.REASON, reason));
      }
    };
  }
}
