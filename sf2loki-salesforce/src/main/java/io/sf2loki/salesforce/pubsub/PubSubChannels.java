package io.sf2loki.salesforce.pubsub;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.sf2loki.core.settings.Setting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-lifetime gRPC channels to the Pub/Sub API (SPEC PS-1, PIPE-20): one {@link
 * ManagedChannel} per org, built on first use, reused by every term, shut down by {@link #close()}
 * at process exit. Thread-safe.
 *
 * <p>Channel settings (PS-1): TLS unless {@link Settings#tls()} is false (then plaintext, meant for
 * a local simulator), keepalive ping every 30 s, keepalive timeout 10 s, pings permitted without
 * calls, maximum inbound message 128 MiB. The Java client imposes no limit on pings without data,
 * so PS-1's "no limit on pings without data" needs no setting.
 *
 * <p>Executors: the channels' application callbacks and blocking offload work run on one
 * virtual-thread-per-task executor this object owns ({@code sf2loki-grpc-N}, DESIGN's concurrency
 * rules), never on gRPC's implicit shared pool; {@link #close()} shuts it down after the channels.
 * Netty's own event loop stays the transport's.
 */
public final class PubSubChannels implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PubSubChannels.class);

  /**
   * One org's channel settings.
   *
   * @param endpoint {@code pubsub.endpoint}, a gRPC target {@code host:port}
   * @param tls {@code pubsub.tls}: false speaks plaintext
   * @param keepAliveTime interval between keepalive pings (PS-1: 30 s)
   * @param keepAliveTimeout how long a ping may stay unanswered before the transport is closed
   *     (PS-1: 10 s)
   * @param maxInboundMessageBytes largest accepted response message in bytes (PS-1: 128 MiB)
   * @param shutdownTimeout how long {@link PubSubChannels#close()} waits for the orderly shutdown
   *     before forcing it (5 s)
   */
  public record Settings(
      String endpoint,
      boolean tls,
      Duration keepAliveTime,
      Duration keepAliveTimeout,
      int maxInboundMessageBytes,
      Duration shutdownTimeout) {
    /** Definition of the {@code endpoint} key (SPEC §1.3). */
    public static final Setting ENDPOINT =
        Setting.string(
            "endpoint", "api.pubsub.salesforce.com:7443", "gRPC target host:port.", "PS-1");

    /** Definition of the {@code tls} key (SPEC §1.3). */
    public static final Setting TLS =
        Setting.bool("tls", true, "false = plaintext gRPC (local simulator only).", "PS-1");

    /** PS-1: keepalive ping interval. */
    public static final Duration DEFAULT_KEEPALIVE_TIME = Duration.ofSeconds(30);

    /** PS-1: keepalive timeout. */
    public static final Duration DEFAULT_KEEPALIVE_TIMEOUT = Duration.ofSeconds(10);

    /** PS-1: maximum inbound message size, 128 MiB. */
    public static final int DEFAULT_MAX_INBOUND_MESSAGE_BYTES = 128 * 1024 * 1024;

    /** Shutdown wait at process exit (PIPE-13's 5 s closer budget). */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Validates.
     *
     * @throws IllegalArgumentException on a blank endpoint, a non-positive duration or size
     */
    public Settings {
      Objects.requireNonNull(endpoint, "endpoint");
      Objects.requireNonNull(keepAliveTime, "keepAliveTime");
      Objects.requireNonNull(keepAliveTimeout, "keepAliveTimeout");
      Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
      if (endpoint.isBlank()) {
        throw new IllegalArgumentException("pubsub.endpoint must not be blank");
      }
      if (!keepAliveTime.isPositive()
          || !keepAliveTimeout.isPositive()
          || shutdownTimeout.isNegative()
          || maxInboundMessageBytes < 1) {
        throw new IllegalArgumentException("channel timings and sizes must be positive");
      }
    }

    /**
     * The SPEC channel settings for an endpoint.
     *
     * @param endpoint {@code host:port}
     * @param tls false for plaintext
     */
    public static Settings of(String endpoint, boolean tls) {
      return new Settings(
          endpoint,
          tls,
          DEFAULT_KEEPALIVE_TIME,
          DEFAULT_KEEPALIVE_TIMEOUT,
          DEFAULT_MAX_INBOUND_MESSAGE_BYTES,
          DEFAULT_SHUTDOWN_TIMEOUT);
    }

    /** The SPEC defaults: the {@link #ENDPOINT} default over TLS. */
    public static Settings defaults() {
      return of(ENDPOINT.stringDefault(), TLS.boolDefault());
    }
  }

  private final Map<String, Settings> settingsByOrg;
  private final Map<String, ManagedChannel> channels = new LinkedHashMap<>();
  private final ExecutorService executor =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sf2loki-grpc-", 0).factory());
  private boolean closed;

  /**
   * @param settingsByOrg each org's channel settings, keyed by org name ({@code ""} in legacy
   *     single-org mode)
   */
  public PubSubChannels(Map<String, Settings> settingsByOrg) {
    this.settingsByOrg = Map.copyOf(settingsByOrg);
  }

  /**
   * The org's channel, built on the first call (PS-1).
   *
   * @param org the org name ({@code ""} in legacy mode)
   * @return the same channel on every call until {@link #close()}
   * @throws IllegalArgumentException when the org has no settings
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized ManagedChannel channel(String org) {
    if (closed) {
      throw new IllegalStateException("pubsub channels are closed");
    }
    ManagedChannel ch = channels.get(org);
    if (ch == null) {
      Settings s = settingsByOrg.get(org);
      if (s == null) {
        throw new IllegalArgumentException("no pubsub channel settings for org '" + org + "'");
      }
      ch = builder(s).executor(executor).offloadExecutor(executor).build();
      channels.put(org, ch);
      var event = log.atInfo();
      if (!org.isEmpty()) { // "" is the single-org (legacy) mode
        event = event.addKeyValue("org", org);
      }
      event
          .addKeyValue("endpoint", s.endpoint())
          .addKeyValue("tls", s.tls())
          .log("pubsub channel created");
    }
    return ch;
  }

  /** A supplier of {@link #channel(String) channel(org)}, built lazily on its first call. */
  public Supplier<ManagedChannel> forOrg(String org) {
    Objects.requireNonNull(org, "org");
    return () -> channel(org);
  }

  /** Whether the org's channel has been built (and not yet closed). */
  public synchronized boolean isBuilt(String org) {
    return channels.containsKey(org);
  }

  /**
   * Builds a channel with the PS-1 settings on gRPC's default executor; the caller owns it (tests
   * and one-shot tools; the daemon uses {@link #channel(String)}).
   *
   * @param s the channel settings
   * @return a new, idle channel
   */
  public static ManagedChannel build(Settings s) {
    return builder(s).build();
  }

  /**
   * Builds a channel with the PS-1 settings whose callbacks and offload work run on {@code
   * executor}; the caller owns both and shuts the executor down after the channel.
   *
   * @param s the channel settings
   * @param executor the caller-owned executor
   * @return a new, idle channel
   */
  public static ManagedChannel build(Settings s, Executor executor) {
    Objects.requireNonNull(executor, "executor");
    return builder(s).executor(executor).offloadExecutor(executor).build();
  }

  /** Whether the owned executor has terminated (after {@link #close()}; tests). */
  boolean executorTerminated() {
    return executor.isTerminated();
  }

  /** The configured builder (for {@link #build}; visible for tests). */
  static NettyChannelBuilder builder(Settings s) {
    NettyChannelBuilder b =
        NettyChannelBuilder.forTarget(s.endpoint())
            .keepAliveTime(s.keepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
            .keepAliveTimeout(s.keepAliveTimeout().toNanos(), TimeUnit.NANOSECONDS)
            .keepAliveWithoutCalls(true)
            .maxInboundMessageSize(s.maxInboundMessageBytes());
    if (s.tls()) {
      b.useTransportSecurity();
    } else {
      b.usePlaintext();
    }
    return b;
  }

  /**
   * Shuts every built channel down (process exit): an orderly shutdown awaited up to each org's
   * {@link Settings#shutdownTimeout()}, then forced. Idempotent; later {@link #channel} calls fail.
   */
  @Override
  public void close() {
    List<Map.Entry<String, ManagedChannel>> toClose;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(channels.entrySet());
      channels.clear();
    }
    toClose.forEach(e -> e.getValue().shutdown());
    boolean interrupted = false;
    for (Map.Entry<String, ManagedChannel> e : toClose) {
      ManagedChannel ch = e.getValue();
      try {
        Duration wait = settingsByOrg.get(e.getKey()).shutdownTimeout();
        if (!interrupted && !ch.awaitTermination(wait.toNanos(), TimeUnit.NANOSECONDS)) {
          log.atWarn().addKeyValue("org", e.getKey()).log("pubsub channel shutdown forced");
        }
      } catch (InterruptedException ex) {
        interrupted = true;
      }
      ch.shutdownNow();
    }
    executor.shutdown();
    try {
      if (!interrupted
          && !executor.awaitTermination(
              Settings.DEFAULT_SHUTDOWN_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)) {
        log.atWarn().log("pubsub channel executor did not stop; forcing");
      }
    } catch (InterruptedException ex) {
      interrupted = true;
    }
    executor.shutdownNow();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
