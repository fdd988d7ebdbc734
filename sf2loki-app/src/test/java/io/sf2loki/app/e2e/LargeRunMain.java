package io.sf2loki.app.e2e;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.logging.LogSetup;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Child-process entry point of {@link LargeFileMemoryTest}: runs the real daemon once over the
 * configured org (finite), then prints the process's peak resident set size ({@code VmHWM} from
 * {@code /proc/self/status}) and exits with the daemon's status.
 */
public final class LargeRunMain {
  private LargeRunMain() {}

  public static void main(String[] args) throws Exception {
    LogSetup.configure("warning", "logfmt");
    Sf2lokiConfig cfg = new ConfigLoader().load(Path.of(args[0]), Map.of());
    long start = System.nanoTime();
    int status =
        new Daemon(
                cfg,
                new DaemonOptions(true, null, UnaryOperator.identity(), TimeSource.system()),
                System.err)
            .run(new StopSignal());
    long ms = (System.nanoTime() - start) / 1_000_000;
    String hwm =
        Files.readAllLines(Path.of("/proc/self/status")).stream()
            .filter(l -> l.startsWith("VmHWM:"))
            .findFirst()
            .orElse("VmHWM: unknown");
    Runtime rt = Runtime.getRuntime();
    System.out.println("LARGE-RUN status=" + status + " millis=" + ms);
    System.out.println("LARGE-RUN " + hwm.replaceAll("\\s+", " "));
    System.out.println("LARGE-RUN maxHeapBytes=" + rt.maxMemory());
    System.exit(status);
  }
}
