package io.sf2loki.app.e2e.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted on a test's state directory, and the two real faults of a state disk: full
 * (a filler file written until the kernel answers ENOSPC) and read-only (a read-only bind mount of
 * the directory over itself: new opens for writing fail with EROFS, while descriptors opened before
 * — the daemon's sidecar lock — stay valid). A plain {@code mount -o remount,ro} of the tmpfs is
 * not used: the kernel refuses it with EBUSY while the daemon holds a file open for writing.
 *
 * <p>Needs {@code mount}/{@code umount} and CAP_SYS_ADMIN (root). Without them {@link #mount} skips
 * the test, or fails it when {@code CI=true} (CI runs as root on Linux, where it works). {@link
 * #close()} removes every mount at the directory, lazily when still busy; call it after the child
 * that used the directory has exited.
 */
public final class StateDisk implements AutoCloseable {
  private static final int MAX_STACKED_MOUNTS = 4;

  private final Path dir;
  private final Path filler;
  private boolean readOnly;

  private StateDisk(Path dir) {
    this.dir = dir;
    this.filler = dir.resolve("filler.bin");
  }

  /**
   * Creates {@code dir} and mounts a tmpfs of {@code sizeBytes} on it.
   *
   * @throws org.opentest4j.TestAbortedException when mounting is not permitted here (not CI)
   */
  public static StateDisk mount(Path dir, long sizeBytes) throws IOException, InterruptedException {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
      notPermitted(
          "a tmpfs state disk needs Linux (os.name=" + System.getProperty("os.name") + ")");
    }
    Files.createDirectories(dir);
    Path real = dir.toRealPath();
    Result r = run("mount", "-t", "tmpfs", "-o", "size=" + sizeBytes, "tmpfs", real.toString());
    if (r.status() != 0) {
      notPermitted("mounting a tmpfs is not permitted here (needs root): " + r.output());
    }
    return new StateDisk(real);
  }

  private static void notPermitted(String why) {
    if ("true".equals(System.getenv("CI"))) {
      fail("CI=true but " + why);
    }
    Assumptions.abort("skipped: " + why);
  }

  /** The mounted directory (real path). */
  public Path dir() {
    return dir;
  }

  /**
   * Fills the disk: writes {@code filler.bin} in 64 KiB chunks until the file system answers
   * ENOSPC.
   *
   * @return the bytes the filler holds
   * @throws AssertionError when the failure that ended the filling is not ENOSPC
   */
  public long fill() throws IOException {
    ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    long written = 0;
    try (FileChannel ch =
        FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (true) {
        chunk.clear();
        written += ch.write(chunk);
      }
    } catch (IOException e) {
      if (e.getMessage() == null || !e.getMessage().contains("No space left on device")) {
        throw new AssertionError("filling " + dir + " ended with another failure", e);
      }
    }
    return written;
  }

  /** Ends {@link #fill()}: deletes the filler. */
  public void unfill() throws IOException {
    Files.delete(filler);
  }

  /** Makes the directory read-only for every new open (a read-only bind mount over it). */
  public void makeReadOnly() throws IOException, InterruptedException {
    check(run("mount", "--bind", dir.toString(), dir.toString()));
    readOnly = true;
    check(run("mount", "-o", "remount,bind,ro", dir.toString()));
  }

  /** Ends {@link #makeReadOnly()}: removes the read-only bind mount (lazily if a read is open). */
  public void makeWritable() throws IOException, InterruptedException {
    unmountTop();
    readOnly = false;
  }

  /** Whether a read-only bind mount covers the directory. */
  public boolean readOnly() {
    return readOnly;
  }

  /** Removes every mount stacked on the directory. */
  @Override
  public void close() throws IOException, InterruptedException {
    for (int i = 0; i < MAX_STACKED_MOUNTS && mounted(); i++) {
      unmountTop();
    }
    if (mounted()) {
      throw new IllegalStateException("could not unmount " + dir);
    }
  }

  private void unmountTop() throws IOException, InterruptedException {
    if (run("umount", dir.toString()).status() != 0) {
      // busy (a file open on it): detach now, the kernel frees it when the last file closes
      check(run("umount", "-l", dir.toString()));
    }
  }

  private boolean mounted() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
      String[] f = line.split(" ");
      if (f.length > 4 && f[4].equals(dir.toString())) {
        return true;
      }
    }
    return false;
  }

  private record Result(int status, String output) {}

  private static void check(Result r) {
    if (r.status() != 0) {
      throw new IllegalStateException("exit " + r.status() + ": " + r.output());
    }
  }

  private static Result run(String... cmd) throws InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(-1, String.join(" ", cmd) + ": " + e.getMessage());
    }
    try (var in = p.getInputStream()) {
      String out = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(-1, String.join(" ", cmd) + ": no exit within 30 s");
      }
      return new Result(p.exitValue(), String.join(" ", cmd) + ": " + out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
