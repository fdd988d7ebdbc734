package io.sf2loki.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the image without a container engine: its layers unpacked into a root file system, mounted
 * read-only in a private mount namespace ({@code unshare -m}) with a tmpfs {@code /tmp}, entered
 * with {@code chroot} as the image's user 10001:10001 and with exactly the image's {@code Env},
 * {@code Entrypoint} and {@code Cmd} semantics. Needs root (CI and this machine run as root);
 * skipped otherwise.
 */
class ImageRunTest {
  @TempDir static Path tmp;
  static ImageArchive image;
  static Path rootfs;
  static Path harness;

  @BeforeAll
  static void unpack() throws Exception {
    image = ImageArchive.open(tmp);
    Launch.Result id = Launch.run(tmp, Map.of("PATH", "/usr/bin:/bin"), List.of("id", "-u"), 10);
    Assumptions.assumeTrue("0".equals(id.out().strip()), "needs root for unshare/mount/chroot");
    rootfs = image.unpack(tmp.resolve("rootfs"), tmp);
    for (String mountPoint : List.of("dev", "proc")) {
      Files.createDirectories(rootfs.resolve(mountPoint));
    }
    harness =
        Files.writeString(
            tmp.resolve("run-in-image.sh"),
            """
            set -eu
            root=$1; user=$2; shift 2
            mount --bind "$root" "$root"
            mount -o remount,bind,ro "$root"
            mount -t tmpfs -o size=128m,mode=1777 tmpfs "$root/tmp"
            mount --rbind /dev "$root/dev"
            mount -t proc proc "$root/proc"
            exec chroot --userspec="$user" "$root" "$@"
            """);
  }

  private static Launch.Result runImage(long timeoutSeconds, String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "unshare",
                "-m",
                "--propagation",
                "private",
                "bash",
                harness.toString(),
                rootfs.toString(),
                image.config.at("/config/User").asText(),
                "/usr/bin/env",
                "-i"));
    image.env().forEach((k, v) -> cmd.add(k + "=" + v));
    image.config.at("/config/Entrypoint").forEach(e -> cmd.add(e.asText()));
    cmd.addAll(List.of(args));
    return Launch.run(tmp, Map.of("PATH", "/usr/sbin:/usr/bin:/sbin:/bin"), cmd, timeoutSeconds);
  }

  @Test
  @DisplayName("DEP-2: the entrypoint prints the version as uid 10001 on a read-only root")
  void dep2_versionAsNonRoot() throws Exception {
    Launch.Result r = runImage(60, "--version");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().strip()).isEqualTo("sf2loki " + Repo.version());
  }

  @Test
  @DisplayName(
      "DEP-2: the demo (Pub/Sub over netty, snappy push) runs on a read-only root with only /tmp writable")
  void dep2_demoOnReadOnlyRoot() throws Exception {
    Launch.Result r = runImage(180, "demo", "--duration", "60s");
    assertThat(r.exit()).as("stdout:%n%s%nstderr:%n%s", r.out(), r.err()).isZero();
    assertThat(r.out()).contains("OK: delivered").contains("pubsub:/event/LoginEventStream");
    assertThat(r.out() + r.err()).doesNotContain("Read-only file system");
  }
}
