package io.sf2loki.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command with exactly the given environment; stdout and stderr go to files. */
final class Launch {
  private Launch() {}

  /** What a finished process printed and returned. */
  record Result(int exit, String out, String err) {}

  static Result run(Path workDir, Map<String, String> env, List<String> cmd, long timeoutSeconds)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(workDir, "out-", ".txt");
    Path err = Files.createTempFile(workDir, "err-", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError(
          cmd + " did not finish in " + timeoutSeconds + " s; stderr: " + Files.readString(err));
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /**
   * A directory holding only symbolic links to the given host tools, for a PATH that has nothing
   * else (no Maven, no javac).
   */
  static Path toolDir(Path parent, String... tools) throws IOException {
    Path dir = Files.createDirectories(parent.resolve("path-bin"));
    for (String t : tools) {
      Path host = Path.of("/usr/bin", t);
      if (!Files.isExecutable(host)) {
        host = Path.of("/bin", t);
      }
      Files.createSymbolicLink(dir.resolve(t), host);
    }
    return dir;
  }
}
