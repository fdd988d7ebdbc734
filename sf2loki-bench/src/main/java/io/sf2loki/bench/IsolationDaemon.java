package io.sf2loki.bench;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.core.time.StopSignal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The daemon of {@link OrgIsolation}, started with {@code --config <file>}: either a child JVM
 * running {@code io.sf2loki.app.cli.Main} on this JVM's class path (output to {@code daemon.log} in
 * the work directory; {@link #close()} sends SIGTERM, then kills after 60 s), or {@link Daemon} on
 * a platform thread of this JVM that {@link #close()} stops and joins.
 */
abstract class IsolationDaemon implements AutoCloseable {
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  /**
   * Starts the daemon as {@code opt.daemon} ({@code child}, the default, or {@code in-process}).
   */
  static IsolationDaemon start(Map<String, String> opt, Path config, Path dir) throws IOException {
    String mode = opt.getOrDefault("daemon", "child");
    return switch (mode) {
      case "child" -> Child.start(config, dir, opt.getOrDefault("java-opts", ""));
      case "in-process" -> new InProcess(config);
      default ->
          throw new IllegalArgumentException("--daemon must be child or in-process: " + mode);
    };
  }

  abstract boolean alive();

  /** The last 4 KiB of the daemon's output. */
  abstract String tail();

  @Override
  public abstract void close() throws InterruptedException;

  /** Deletes {@code dir} and everything below it (best effort). */
  static void deleteTree(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: best effort
    }
  }

  private static String lastBytes(String s) {
    return s.substring(Math.max(0, s.length() - 4096));
  }

  private static final class Child extends IsolationDaemon {
    private final Process process;
    private final Path log;

    private Child(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    static Child start(Path config, Path dir, String javaOpts) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(JAVA);
      cmd.add("--enable-native-access=ALL-UNNAMED");
      cmd.add("--sun-misc-unsafe-memory-access=allow");
      Arrays.stream(javaOpts.trim().split("\\s+")).filter(s -> !s.isEmpty()).forEach(cmd::add);
      cmd.add("-cp");
      cmd.add(
          Arrays.stream(System.getProperty("java.class.path").split(":"))
              .map(e -> Path.of(e).toAbsolutePath().toString())
              .collect(Collectors.joining(":")));
      cmd.add("io.sf2loki.app.cli.Main");
      cmd.add("--config");
      cmd.add(config.toString());
      Path log = dir.resolve("daemon.log");
      Process p =
          new ProcessBuilder(cmd)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      return new Child(p, log);
    }

    @Override
    boolean alive() {
      return process.isAlive();
    }

    @Override
    String tail() {
      try {
        return lastBytes(Files.readString(log, StandardCharsets.UTF_8));
      } catch (IOException e) {
        return "(no log: " + e + ")";
      }
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private static final class InProcess extends IsolationDaemon {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final StopSignal stop = new StopSignal();
    private final AtomicInteger status = new AtomicInteger(-1);
    private final Thread thread;

    InProcess(Path config) {
      Daemon daemon =
          new Daemon(
              new ConfigLoader().load(config, Map.of()),
              DaemonOptions.production(),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      thread = Thread.ofPlatform().name("orgiso-daemon").start(() -> status.set(daemon.run(stop)));
    }

    @Override
    boolean alive() {
      return thread.isAlive();
    }

    @Override
    String tail() {
      return "status " + status.get() + "; " + lastBytes(err.toString(StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws InterruptedException {
      stop.stop();
      if (!thread.join(Duration.ofSeconds(60))) {
        throw new IllegalStateException("daemon thread did not stop within 60 s");
      }
    }
  }
}
