package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A command-line tool from a Debian package that a deployment test needs (promtool and prometheus
 * from {@code prometheus}, systemd-analyze from {@code systemd}). When the tool is missing the test
 * fails under CI (environment variable {@code CI} set and non-empty; {@code .ci/run} installs the
 * package) and is skipped with the install hint otherwise.
 *
 * @param path the executable
 */
record ExternalTool(Path path) {
  /** What a finished command printed (stdout and stderr interleaved) and its exit status. */
  record Result(int exitCode, String output) {}

  /**
   * Finds {@code name} on {@code PATH}.
   *
   * @param name the executable name, e.g. {@code promtool}
   * @param debianPackage the package that ships it, for the message
   * @return the tool; never returns when it is missing (fails under CI, aborts the test otherwise)
   */
  static ExternalTool require(String name, String debianPackage) {
    return require(name, debianPackage, System.getenv());
  }

  /** As {@link #require(String, String)} with {@code PATH} and {@code CI} read from {@code env}. */
  static ExternalTool require(String name, String debianPackage, Map<String, String> env) {
    Optional<Path> found = lookup(name, env.get("PATH"));
    if (found.isPresent()) {
      return new ExternalTool(found.get());
    }
    String msg =
        name
            + " not found on PATH; install it with `apt-get install -y --no-install-recommends "
            + debianPackage
            + "` (.ci/run does this)";
    String ci = env.get("CI");
    if (ci != null && !ci.isBlank()) {
      fail("CI is set and " + msg);
    }
    Assumptions.abort("skipped locally: " + msg);
    throw new AssertionError("unreachable");
  }

  /** The executable named {@code name} on {@code PATH}, if any. */
  static Optional<Path> lookup(String name) {
    return lookup(name, System.getenv("PATH"));
  }

  private static Optional<Path> lookup(String name, String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * Runs the tool with {@code args} in {@code dir} and waits for it.
   *
   * @param limit how long it may run; it is killed (and the test fails) after that
   * @return its exit status and output
   */
  Result run(Path dir, Duration limit, List<String> args) throws IOException, InterruptedException {
    return run(dir, limit, args, null);
  }

  /** As {@link #run(Path, Duration, List)} with standard input read from {@code stdinOrNull}. */
  Result run(Path dir, Duration limit, List<String> args, Path stdinOrNull)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("sf2loki-tool-", ".out");
    try {
      List<String> cmd = new java.util.ArrayList<>();
      cmd.add(path.toString());
      cmd.addAll(args);
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(out.toFile());
      if (stdinOrNull != null) {
        pb.redirectInput(stdinOrNull.toFile());
      }
      Process p = pb.start();
      if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        fail(cmd + " did not finish within " + limit + ": " + Files.readString(out));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
