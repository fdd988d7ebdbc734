package io.sf2loki.app.e2e.support;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * One {@code sf2loki run} child JVM coordinated by {@code file_lease} (HA-9…HA-11) on a shared
 * lease file and a shared file checkpoint store, with its own health port: the replica of the
 * process-level failover tests. Its configuration is the {@link SalesforceScenario} one plus the
 * {@code coordinate} block, {@code state.store: file} and the health port.
 */
public final class FileLeaseReplica implements AutoCloseable {
  private final ChildJvm child;
  private final int port;
  private final String holder;
  private final HealthProbe health;

  private FileLeaseReplica(ChildJvm child, int port, String holder, HealthProbe health) {
    this.child = child;
    this.port = port;
    this.holder = holder;
    this.health = health;
  }

  /** The lease timing of both replicas; {@code 2 × renew < ttl} (CFG-21). */
  public record Lease(Path file, Duration ttl, Duration renew) {}

  /**
   * Starts a replica.
   *
   * @param base the scenario's configuration ({@link SalesforceScenario#writeConfig})
   * @param workDir where the replica's configuration and output files go
   * @param lease the shared lease file and its timing (whole seconds)
   * @param holder the {@code holder_id}, also the configuration's file name
   * @param edit further edits of the configuration text (identity for none)
   * @param health the probe {@link #readyz()} uses (owned by the caller)
   */
  public static FileLeaseReplica start(
      Path base,
      Path workDir,
      Lease lease,
      String holder,
      UnaryOperator<ConfigText> edit,
      HealthProbe health)
      throws IOException {
    int port = HealthProbe.freePort();
    Path cfg =
        FileLeaseConfig.write(
            base, workDir, lease.file(), holder, port, lease.ttl(), lease.renew());
    if (edit != null) {
      edit.apply(ConfigText.read(cfg)).writeTo(cfg);
    }
    ChildJvm child =
        ChildJvm.start(workDir, List.of("-Xmx256m"), "run", "--config", cfg.toString());
    return new FileLeaseReplica(child, port, holder, health);
  }

  public ChildJvm child() {
    return child;
  }

  public String holder() {
    return holder;
  }

  /** Whether the child process is running. */
  public boolean alive() {
    return child.process().isAlive();
  }

  /** {@code "<status> <body>"} of {@code GET /readyz}, or {@code "down"} while nothing answers. */
  public String readyz() throws InterruptedException {
    return health.readyz(port);
  }

  /** Sends {@code kill -<signal>} (e.g. {@code STOP}, {@code CONT}) to the child process. */
  public void signal(String signal) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(child.process().pid()))
            .redirectErrorStream(true)
            .start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IOException(
          "kill -" + signal + " " + child.process().pid() + " failed: " + kill.exitValue());
    }
  }

  /** The child's output so far, labelled (for assertion messages). */
  public String log() {
    return holder + " stdout:\n" + child.stdout() + "\n" + holder + " stderr:\n" + child.stderr();
  }

  /** Kills the child if it is still running (a stopped child is continued first). */
  @Override
  public void close() throws InterruptedException {
    if (child.process().isAlive()) {
      try {
        signal("CONT");
      } catch (IOException e) {
        // it is killed below either way
      }
    }
    child.close();
  }
}
