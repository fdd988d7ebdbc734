package io.sf2loki.state.k8s;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.sf2loki.state.lease.LeaseConflictException;
import io.sf2loki.state.lease.LeaseWriteException;
import java.net.HttpURLConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The three calls {@code k8s_lease} makes on one {@code coordination.k8s.io/v1} Lease (SPEC HA-12):
 * {@code get}, {@code create} and {@code update} (PUT guarded by {@code metadata.resourceVersion}),
 * exactly the verbs the Helm chart's Role grants. One attempt per call: the fabric8 client's own
 * retries are off, every request is bounded by the request timeout.
 *
 * <p>Owns the fabric8 client and the virtual-thread executor its JDK HTTP client runs on when built
 * by {@link #connect}; {@link #close()} closes both.
 */
public final class K8sLeaseClient implements AutoCloseable {
  private final KubernetesClient client;
  private final ExecutorService executor; // null when the client is not ours
  private final String namespace;
  private final String name;

  /**
   * Uses {@code client} (not closed by {@link #close()}; tests hand in the mock server's client).
   */
  public K8sLeaseClient(KubernetesClient client, String namespace, String name) {
    this(client, null, namespace, name);
  }

  private K8sLeaseClient(
      KubernetesClient client, ExecutorService executor, String namespace, String name) {
    this.client = Objects.requireNonNull(client, "client");
    this.executor = executor;
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * Builds a client: from {@code kubeconfig} when given, else fabric8's automatic configuration (in
   * cluster: the ServiceAccount token, CA and {@code KUBERNETES_SERVICE_HOST}; elsewhere {@code
   * kubernetes.*} system properties, {@code KUBERNETES_*} variables, {@code ~/.kube/config}).
   *
   * @param requestTimeout bound of each request and of connecting (we use {@code renew_interval})
   * @throws IllegalArgumentException when {@code kubeconfig} cannot be read or parsed
   */
  public static K8sLeaseClient connect(
      String namespace, String name, Optional<Path> kubeconfig, Duration requestTimeout) {
    Config base;
    try {
      base =
          kubeconfig.isPresent()
              ? Config.fromKubeconfig(null, kubeconfig.get().toFile())
              : Config.autoConfigure(null);
    } catch (KubernetesClientException e) {
      throw new IllegalArgumentException(
          "cannot load kubeconfig " + kubeconfig.map(Path::toString).orElse("") + ": " + e, e);
    }
    int ms = (int) Math.min(Integer.MAX_VALUE, requestTimeout.toMillis());
    Config config =
        new ConfigBuilder(base)
            .withRequestTimeout(ms)
            .withConnectionTimeout(ms)
            .withRequestRetryBackoffLimit(0)
            .build();
    ExecutorService executor =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sf2loki-k8s-", 0).factory());
    JdkHttpClientFactory http =
        new JdkHttpClientFactory() {
          @Override
          protected java.net.http.HttpClient.Builder createNewHttpClientBuilder() {
            return java.net.http.HttpClient.newBuilder().executor(executor);
          }
        };
    KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(http)
            .withTaskExecutor(executor)
            .build();
    return new K8sLeaseClient(client, executor, namespace, name);
  }

  /**
   * The same connection on the Lease {@code otherName} in the same namespace (HA-27: one per org
   * and seat); the view owns nothing, so closing it closes nothing — close this client after its
   * views.
   */
  public K8sLeaseClient named(String otherName) {
    return new K8sLeaseClient(client, null, namespace, otherName);
  }

  /** GET: 404 → {@link K8sLeaseRead#notFound()}, another failure → a read carrying it. */
  public K8sLeaseRead read() {
    try {
      Lease l = lease().get();
      return l == null ? K8sLeaseRead.notFound() : new K8sLeaseRead(l, null);
    } catch (KubernetesClientException e) {
      return e.getCode() == HttpURLConnection.HTTP_NOT_FOUND
          ? K8sLeaseRead.notFound()
          : new K8sLeaseRead(null, e);
    }
  }

  /**
   * Writes the Lease: a create when {@code base} is null, else an update of {@code base} (its
   * metadata and {@code resourceVersion} kept, so the write is refused if the Lease changed).
   *
   * @param holder {@code spec.holderIdentity}; null clears it (release)
   * @param epoch {@code spec.leaseTransitions}
   * @param now {@code spec.renewTime} (informational)
   * @param leaseDuration {@code spec.leaseDurationSeconds} = its whole seconds, rounded up
   * @return the new {@code resourceVersion}
   * @throws LeaseConflictException on 409 (lost race, stale {@code resourceVersion})
   * @throws K8sLeaseGoneException on 404 (the Lease was deleted)
   * @throws LeaseWriteException on any other failure
   */
  public String write(Lease base, String holder, long epoch, Instant now, Duration leaseDuration) {
    LeaseBuilder b =
        base == null
            ? new LeaseBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
            : new LeaseBuilder(base);
    long secs = Math.max(1, (leaseDuration.toMillis() + 999) / 1000);
    Lease body =
        b.editOrNewSpec()
            .withHolderIdentity(holder)
            .withRenewTime(now.atZone(ZoneOffset.UTC))
            .withLeaseDurationSeconds((int) Math.min(Integer.MAX_VALUE, secs))
            .withLeaseTransitions((int) Math.min(Integer.MAX_VALUE, epoch))
            .endSpec()
            .build();
    try {
      Resource<Lease> r = client.leases().inNamespace(namespace).resource(body);
      Lease out = base == null ? r.create() : r.update();
      return out.getMetadata().getResourceVersion();
    } catch (KubernetesClientException e) {
      String what = (base == null ? "create" : "update") + " of Lease " + describe();
      throw switch (e.getCode()) {
        case HttpURLConnection.HTTP_CONFLICT -> new LeaseConflictException(what + ": 409", e);
        case HttpURLConnection.HTTP_NOT_FOUND -> new K8sLeaseGoneException(what + ": 404", e);
        default -> new LeaseWriteException(what + " failed: " + e.getMessage(), e);
      };
    }
  }

  /** {@code namespace/name}. */
  public String describe() {
    return namespace + "/" + name;
  }

  @Override
  public void close() {
    if (executor == null) {
      return;
    }
    try {
      client.close();
    } finally {
      executor.shutdown();
      try {
        if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
          executor.shutdownNow();
        }
      } catch (InterruptedException e) {
        executor.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }

  private Resource<Lease> lease() {
    return client.leases().inNamespace(namespace).withName(name);
  }
}
