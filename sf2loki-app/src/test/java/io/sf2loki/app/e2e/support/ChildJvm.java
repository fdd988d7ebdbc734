package io.sf2loki.app.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code io.sf2loki.app.cli.Main} in a real child JVM (the test JVM's {@code java} and class path),
 * with stdout and stderr redirected to files and no inherited {@code SF2LOKI_*} environment
 * (CFG-1), so the child sees only what the test gives it.
 */
public final class ChildJvm implements AutoCloseable {
  private static final String MAIN = "io.sf2loki.app.cli.Main";

  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private ChildJvm(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /**
   * Starts {@code sf2loki <args>} as a child process.
   *
   * @param workDir where the child's stdout/stderr files are written
   */
  public static ChildJvm start(Path workDir, String... args) throws IOException {
    return start(workDir, List.of(), args);
  }

  /**
   * Starts {@code sf2loki <args>} as a child process with further JVM options.
   *
   * @param workDir where the child's stdout/stderr files are written
   * @param jvmOptions added after the defaults (e.g. {@code -Xmx256m})
   */
  public static ChildJvm start(Path workDir, List<String> jvmOptions, String... args)
      throws IOException {
    return start(workDir, jvmOptions, Map.of(), args);
  }

  /**
   * Starts {@code sf2loki <args>} as a child process with further JVM options and environment
   * variables (e.g. {@code LD_PRELOAD} of libfaketime).
   *
   * @param workDir where the child's stdout/stderr files are written
   * @param jvmOptions added after the defaults (e.g. {@code -Xmx256m})
   * @param env added to (or replacing in) the inherited environment
   */
  public static ChildJvm start(
      Path workDir, List<String> jvmOptions, Map<String, String> env, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // start-up cost matters on a small CI box; the child does little work
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(MAIN);
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, "child-", ".out");
    Path err = Files.createTempFile(workDir, "child-", ".err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().keySet().removeIf(k -> k.toUpperCase(Locale.ROOT).startsWith("SF2LOKI_"));
    pb.environment().putAll(env);
    return new ChildJvm(pb.start(), out, err);
  }

  /** The child process. */
  public Process process() {
    return process;
  }

  /**
   * Waits for the child to exit.
   *
   * @return its exit status
   * @throws AssertionError when it is still running after {@code limit} (it is then killed)
   */
  public int waitFor(Duration limit) throws InterruptedException {
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          "child JVM still running after "
              + limit
              + "; stdout:\n"
              + stdout()
              + "\nstderr:\n"
              + stderr());
    }
    return process.exitValue();
  }

  /** The files the child's stdout and stderr go to. */
  public List<Path> outputFiles() {
    return List.of(stdout, stderr);
  }

  /** Everything the child wrote to stdout so far. */
  public String stdout() {
    return read(stdout);
  }

  /** Everything the child wrote to stderr so far. */
  public String stderr() {
    return read(stderr);
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Kills the child if it is still running. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
