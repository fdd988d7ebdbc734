package io.sf2loki.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The daemon as a child process started through the distribution launcher ({@code
 * sf2loki-app/src/dist/bin/sf2loki}, which {@code exec}s the JVM, so the child's pid is the JVM's),
 * with the image's {@code SF2LOKI_JVM_DEFAULTS} and extra options in {@code SF2LOKI_JAVA_OPTS},
 * exactly as the container image runs it (SPEC DEP-1, DEP-2). Output goes to a log file.
 */
final class DaemonProcess implements AutoCloseable {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final Process process;
  private final Path log;
  private static final java.util.regex.Pattern LISTENING =
      java.util.regex.Pattern.compile("health server listening.*health_addr=\"?[^\\s\"]*:(\\d+)");

  private volatile int healthPort;
  private final long startNanos;

  private DaemonProcess(Process process, Path log, int healthPort, long startNanos) {
    this.process = process;
    this.log = log;
    this.healthPort = healthPort;
    this.startNanos = startNanos;
  }

  /**
   * Starts {@code launcher --config config}.
   *
   * @param launcher the distribution launcher script
   * @param home {@code SF2LOKI_HOME} (a directory holding {@code lib/})
   * @param javaHome the runtime ({@code JAVA_HOME})
   * @param jvmDefaults the image's {@code SF2LOKI_JVM_DEFAULTS}
   * @param javaOpts {@code SF2LOKI_JAVA_OPTS} (e.g. {@code -XX:MaxRAM=256m})
   * @param extraEnv more environment variables (e.g. {@code MALLOC_ARENA_MAX})
   * @param healthPort the port of {@code service.health_addr} in {@code config}; 0 = read the bound
   *     port from the daemon's INFO line {@code health server listening} (no port race with other
   *     processes on a shared machine)
   */
  static DaemonProcess start(
      Path launcher,
      Path home,
      Path javaHome,
      String jvmDefaults,
      String javaOpts,
      Map<String, String> extraEnv,
      Path config,
      Path log,
      int healthPort)
      throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(List.of("bash", launcher.toString(), "--config", config.toString()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("SF2LOKI_HOME", home.toString());
    env.put("JAVA_HOME", javaHome.toString());
    env.put("SF2LOKI_JVM_DEFAULTS", jvmDefaults);
    env.put("SF2LOKI_JAVA_OPTS", javaOpts);
    env.putAll(extraEnv);
    long t0 = System.nanoTime();
    return new DaemonProcess(pb.start(), log, healthPort, t0);
  }

  /** The JVM's pid (the launcher replaced itself with it). */
  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /**
   * Polls {@code /readyz} every 20 ms until it answers 200.
   *
   * @return milliseconds from process start to the first 200
   * @throws IOException when the process exits or {@code timeout} passes first
   */
  long awaitReady(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "daemon exited with " + process.exitValue() + " before ready; log: " + tail());
      }
      if (healthPort == 0) {
        healthPort = boundPort();
      }
      if (healthPort != 0 && status("/readyz") == 200) {
        return (System.nanoTime() - startNanos) / 1_000_000;
      }
      Thread.sleep(20); // poll period of a real process over the network
    }
    throw new IOException("daemon not ready within " + timeout + "; log: " + tail());
  }

  /** The port of the daemon's {@code health server listening} log line, or 0 before it. */
  private int boundPort() {
    try {
      java.util.regex.Matcher m = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /** GET on the health server: the status, or 0 when nothing answered. */
  int status(String path) throws InterruptedException {
    HttpResponse<String> r = get(path);
    return r == null ? 0 : r.statusCode();
  }

  /** GET on the health server: the body, or "" when nothing answered. */
  String text(String path) throws InterruptedException {
    HttpResponse<String> r = get(path);
    return r == null ? "" : r.body();
  }

  private HttpResponse<String> get(String path) throws InterruptedException {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + path))
            .timeout(Duration.ofSeconds(5))
            .build();
    try {
      return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    }
  }

  /** Runs {@code jcmd <pid> <command...>} of {@code javaHome} and returns its output. */
  String jcmd(Path javaHome, String... command) throws IOException, InterruptedException {
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(javaHome.resolve("bin/jcmd").toString(), Long.toString(pid())));
    cmd.addAll(List.of(command));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }

  /**
   * Sends SIGTERM and waits up to {@code grace} for the exit (then kills).
   *
   * @return the exit status
   */
  int stop(Duration grace) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    return process.exitValue();
  }

  /**
   * User + system CPU time of the JVM so far ({@code /proc/<pid>/stat} fields 14 and 15, at 100
   * clock ticks per second, the Linux default), in milliseconds; -1 when unreadable.
   */
  long cpuMillis() {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The exit status, once exited. */
  int exitValue() {
    return process.exitValue();
  }

  /** The last 4 KiB of the daemon's output. */
  String tail() {
    try {
      String s = Files.readString(log, StandardCharsets.UTF_8);
      return s.substring(Math.max(0, s.length() - 4096));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Whether the daemon's output mentions an {@code OutOfMemoryError}. */
  boolean loggedOom() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8).contains("OutOfMemoryError");
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
