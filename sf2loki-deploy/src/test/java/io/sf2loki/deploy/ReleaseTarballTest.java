package io.sf2loki.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release tarball {@code sf2loki-app/target/sf2loki-<version>.tar.gz} (SPEC DEP-1), extracted
 * with the system {@code tar} and run with nothing but a Java runtime: JAVA_HOME holds only {@code
 * bin/java} and {@code release}, PATH only bash, env and nproc (no Maven, no javac).
 */
class ReleaseTarballTest {
  @TempDir static Path tmp;
  static Path home;
  static Path javaHome;
  static Path toolDir;

  @BeforeAll
  static void extract() throws Exception {
    Path tarball = Repo.appTarget().resolve("sf2loki-" + Repo.version() + ".tar.gz");
    assertThat(tarball).as("built by `package` of sf2loki-app").isRegularFile();
    Path dir = Files.createDirectories(tmp.resolve("x"));
    Launch.Result r =
        Launch.run(
            tmp,
            Map.of("PATH", "/usr/bin:/bin"),
            List.of("tar", "-xzf", tarball.toString(), "-C", dir.toString()),
            60);
    assertThat(r.exit()).as(r.err()).isZero();
    try (Stream<Path> top = Files.list(dir)) {
      assertThat(top.map(p -> p.getFileName().toString()))
          .containsExactly("sf2loki-" + Repo.version());
    }
    home = dir.resolve("sf2loki-" + Repo.version());

    // a JRE-like JAVA_HOME: the runtime's java and release file, nothing else of the JDK
    javaHome = Files.createDirectories(tmp.resolve("jre/bin")).getParent();
    Path realJava = Path.of(System.getProperty("java.home"));
    Files.createSymbolicLink(javaHome.resolve("bin/java"), realJava.resolve("bin/java"));
    Files.copy(realJava.resolve("release"), javaHome.resolve("release"));
    toolDir = Launch.toolDir(tmp, "bash", "env", "nproc");
  }

  @Test
  @DisplayName(
      "DEP-1: the tarball holds bin/sf2loki (0755), lib/ = the runtime class path, config, LICENSE")
  void dep1_entries() throws IOException {
    Path launcher = home.resolve("bin/sf2loki");
    assertThat(launcher).isRegularFile();
    assertThat(Files.getPosixFilePermissions(launcher))
        .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
    assertThat(home.resolve("LICENSE")).isRegularFile();
    assertThat(Files.readString(home.resolve("LICENSE"))).contains("Apache License");
    assertThat(home.resolve("README.md")).isRegularFile();
    assertThat(home.resolve("config/sf2loki.example.yaml")).isRegularFile();

    Set<String> lib = names(home.resolve("lib"));
    assertThat(lib)
        .contains(
            "sf2loki-app-" + Repo.version() + ".jar", "sf2loki-core-" + Repo.version() + ".jar");
    // exactly the runtime class path the build copies to target/dist/lib
    assertThat(lib).isEqualTo(names(Repo.appTarget().resolve("dist/lib")));
    assertThat(lib).noneMatch(n -> n.startsWith("junit") || n.startsWith("assertj"));
    assertThat(lib).noneMatch(n -> n.startsWith("wiremock") || n.startsWith("mockito"));
  }

  @Test
  @DisplayName(
      "CLI-15/CLI-16: the tarball ships man/man1/sf2loki.1 and completion/sf2loki.bash rendered"
          + " from the picocli model at build time, naming every command")
  void cli16_manPageAndCompletion() throws IOException {
    String man = Files.readString(home.resolve("man/man1/sf2loki.1"));
    assertThat(man).startsWith(".TH SF2LOKI 1 ").contains(".SH SYNOPSIS");
    for (String cmd : List.of("doctor", "state import", "state show", "completion", "run")) {
      assertThat(man).contains(".SS sf2loki " + cmd);
    }
    assertThat(man).contains("\\fB\\-\\-i\\-stopped\\-the\\-daemon\\fR");
    String bash = Files.readString(home.resolve("completion/sf2loki.bash"));
    assertThat(bash).contains("complete -F _complete_sf2loki").contains("doctor").contains("state");
  }

  @Test
  @DisplayName("DEP-1: bin/sf2loki --version runs with only a Java runtime and no Maven on PATH")
  void dep1_launcherNeedsOnlyARuntime() throws Exception {
    Map<String, String> env = Map.of("JAVA_HOME", javaHome.toString(), "PATH", toolDir.toString());
    Launch.Result r =
        Launch.run(tmp, env, List.of(home.resolve("bin/sf2loki").toString(), "--version"), 60);
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().strip()).isEqualTo("sf2loki " + Repo.version());

    // without JAVA_HOME: java from PATH
    Path javaOnPath = Files.createDirectories(tmp.resolve("path-java"));
    Files.createSymbolicLink(javaOnPath.resolve("java"), javaHome.resolve("bin/java"));
    Launch.Result viaPath =
        Launch.run(
            tmp,
            Map.of("PATH", toolDir + ":" + javaOnPath),
            List.of(home.resolve("bin/sf2loki").toString(), "--version"),
            60);
    assertThat(viaPath.exit()).as(viaPath.err()).isZero();
    assertThat(viaPath.out().strip()).isEqualTo("sf2loki " + Repo.version());
  }

  @Test
  @DisplayName(
      "DEP-1: the launcher refuses a Java older than 21, naming it, without starting a JVM")
  void dep1_refusesOldJava() throws Exception {
    Path old = Files.createDirectories(tmp.resolve("java17/bin")).getParent();
    Files.writeString(old.resolve("bin/java"), "#!/usr/bin/env bash\necho started >&2\nexit 7\n");
    old.resolve("bin/java").toFile().setExecutable(true);
    Files.writeString(old.resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"17.0.15\"\n");
    Launch.Result r =
        Launch.run(
            tmp,
            Map.of("JAVA_HOME", old.toString(), "PATH", toolDir.toString()),
            List.of(home.resolve("bin/sf2loki").toString(), "--version"),
            60);
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .contains("is Java 17; sf2loki needs Java 21 or newer")
        .doesNotContain("started");
  }

  @Test
  @DisplayName(
      "DEP-1: without JAVA_HOME, an old java on PATH (a symlink into the runtime) is refused by name")
  void dep1_refusesOldJavaOnPath() throws Exception {
    Path old = Files.createDirectories(tmp.resolve("jre17/bin")).getParent();
    Files.writeString(old.resolve("bin/java"), "#!/usr/bin/env bash\necho started >&2\nexit 7\n");
    old.resolve("bin/java").toFile().setExecutable(true);
    Files.writeString(old.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
    Path onPath = Files.createDirectories(tmp.resolve("old-java-on-path"));
    Files.createSymbolicLink(onPath.resolve("java"), old.resolve("bin/java"));
    Path tools =
        Launch.toolDir(
            Files.createDirectories(tmp.resolve("tools-readlink")),
            "bash",
            "env",
            "nproc",
            "readlink");
    Launch.Result r =
        Launch.run(
            tmp,
            Map.of("PATH", tools + ":" + onPath),
            List.of(home.resolve("bin/sf2loki").toString(), "--version"),
            60);
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .contains(old + " is Java 17; sf2loki needs Java 21 or newer")
        .doesNotContain("started");
  }

  @Test
  @DisplayName(
      "DEP-14: below a 1 GiB memory limit the launcher caps the heap at limit - 160 MiB, C1 only,"
          + " serial GC, 2 malloc arenas; operator flags come after and win")
  void dep14_smallMemoryLimitProfile() throws Exception {
    String small = " -XX:MaxRAM=256m -Xmx96m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC ";
    assertThat(launchArgs(Map.of("SF2LOKI_MEMORY_LIMIT", "256m")))
        .contains(small)
        .contains("MALLOC_ARENA_MAX=2");
    assertThat(launchArgs(Map.of("SF2LOKI_MEMORY_LIMIT", "268435456"))).contains(small);
    assertThat(launchArgs(Map.of("SF2LOKI_MEMORY_LIMIT", "192Mi")))
        .contains(" -XX:MaxRAM=192m -Xmx64m "); // never below 64 MiB
    assertThat(launchArgs(Map.of("SF2LOKI_MEMORY_LIMIT", "2g")))
        .contains(" -XX:MaxRAM=2048m -XX:MaxRAMPercentage=75 ")
        .doesNotContain("-Xmx")
        .doesNotContain("TieredStopAtLevel")
        .contains("MALLOC_ARENA_MAX=unset");
    String chosen =
        launchArgs(
            Map.of(
                "SF2LOKI_MEMORY_LIMIT", "256m",
                "SF2LOKI_JAVA_OPTS", "-XX:+UseG1GC -Xmx120m",
                "MALLOC_ARENA_MAX", "4"));
    assertThat(chosen)
        .doesNotContain("UseSerialGC")
        .contains("MALLOC_ARENA_MAX=4")
        .containsSubsequence("-Xmx96m", "-Xmx120m"); // the later -Xmx wins
    // a collector chosen anywhere the JVM reads flags from is left alone (two would not start)
    assertThat(
            launchArgs(
                Map.of("SF2LOKI_MEMORY_LIMIT", "256m", "SF2LOKI_JVM_DEFAULTS", "-XX:+UseG1GC")))
        .doesNotContain("UseSerialGC");
    assertThat(
            launchArgs(Map.of("SF2LOKI_MEMORY_LIMIT", "256m", "JAVA_TOOL_OPTIONS", "-XX:+UseZGC")))
        .doesNotContain("UseSerialGC");
    assertThat(
            launchArgs(
                Map.of(
                    "SF2LOKI_MEMORY_LIMIT",
                    "256m",
                    "SF2LOKI_JAVA_OPTS",
                    "-XX:+UseNUMA -XX:+DisableExplicitGC")))
        .contains("-XX:+UseSerialGC"); // not a collector choice
    // from 1 GiB: 75 % of the limit, unless the defaults size the heap themselves
    assertThat(launchArgs(Map.of("SF2LOKI_MEMORY_LIMIT", "1Gi")))
        .contains(" -XX:MaxRAM=1024m -XX:MaxRAMPercentage=75 ");
    assertThat(
            launchArgs(
                Map.of(
                    "SF2LOKI_MEMORY_LIMIT",
                    "1Gi",
                    "SF2LOKI_JVM_DEFAULTS",
                    "-XX:MaxRAMPercentage=50")))
        .containsOnlyOnce("MaxRAMPercentage");

    // the cgroup's limit: v2 memory.max, v1 memory.limit_in_bytes; "max" and v1's 2^63 are none
    Path v2 = Files.createDirectories(tmp.resolve("cgroup-v2"));
    Files.writeString(v2.resolve("memory.max"), "268435456\n");
    assertThat(launchArgs(Map.of("SF2LOKI_CGROUP_DIR", v2.toString())))
        .contains(" -Xmx96m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC ")
        .doesNotContain("MaxRAM"); // the JVM reads the cgroup itself
    Files.writeString(v2.resolve("memory.max"), "max\n");
    assertThat(launchArgs(Map.of("SF2LOKI_CGROUP_DIR", v2.toString()))).doesNotContain("-Xmx");
    Path v1 = Files.createDirectories(tmp.resolve("cgroup-v1/memory"));
    Files.writeString(v1.resolve("memory.limit_in_bytes"), "536870912\n");
    assertThat(launchArgs(Map.of("SF2LOKI_CGROUP_DIR", v1.getParent().toString())))
        .contains(" -Xmx352m ");
    Files.writeString(v1.resolve("memory.limit_in_bytes"), "9223372036854771712\n");
    assertThat(launchArgs(Map.of("SF2LOKI_CGROUP_DIR", v1.getParent().toString())))
        .doesNotContain("-Xmx");
    assertThat(
            launchArgs(Map.of("SF2LOKI_CGROUP_DIR", v2.toString(), "SF2LOKI_MEMORY_LIMIT", "off")))
        .doesNotContain("-Xmx")
        .doesNotContain("MaxRAM");
  }

  @Test
  @DisplayName(
      "DEP-14: a memory limit that is not a size of at least 128 MiB (bytes when plain, no overflow) is"
          + " refused by name before the JVM starts")
  void dep14_badMemoryLimitRefused() throws Exception {
    for (String bad :
        List.of("1.5g", "abc", "-5m", "0", "256", "99999999999999999999", "9999999999g")) {
      Launch.Result r = launch(Map.of("SF2LOKI_MEMORY_LIMIT", bad));
      assertThat(r.exit()).as(bad).isEqualTo(1);
      assertThat(r.err())
          .as(bad)
          .contains("SF2LOKI_MEMORY_LIMIT=" + bad + " is not a size of at least 128 MiB")
          .doesNotContain("ARGS");
    }
  }

  /** The JVM command line the launcher builds, seen by a stand-in java that prints it. */
  private static String launchArgs(Map<String, String> extra) throws Exception {
    Launch.Result r = launch(extra);
    assertThat(r.exit()).as(r.err()).isZero();
    return " " + r.out().strip() + " ";
  }

  private static Launch.Result launch(Map<String, String> extra) throws Exception {
    Path fake = tmp.resolve("echo-java");
    if (!Files.exists(fake)) {
      Files.createDirectories(fake.resolve("bin"));
      Files.writeString(
          fake.resolve("bin/java"),
          "#!/usr/bin/env bash\necho \"ARGS $* MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-unset}\"\n");
      fake.resolve("bin/java").toFile().setExecutable(true);
      Files.writeString(fake.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
    }
    Map<String, String> env = new java.util.HashMap<>(extra);
    env.put("JAVA_HOME", fake.toString());
    env.put("PATH", toolDir.toString());
    env.putIfAbsent("SF2LOKI_CGROUP_DIR", tmp.resolve("no-cgroup").toString());
    return Launch.run(tmp, env, List.of(home.resolve("bin/sf2loki").toString(), "--version"), 60);
  }

  @Test
  @DisplayName("DEP-1: the shipped example configuration passes --check (CLI-4)")
  void dep1_exampleConfigChecks() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    String pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes())
                .encodeToString(g.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    Path key = Files.writeString(tmp.resolve("private_key"), pem);
    Map<String, String> env =
        Map.of(
            "JAVA_HOME", javaHome.toString(),
            "PATH", toolDir.toString(),
            // the example's paths are the container's; point them into the test directory
            "SF2LOKI_SALESFORCE__PRIVATE_KEY_FILE", key.toString(),
            "SF2LOKI_STATE__FILE__PATH", tmp.resolve("state/state.json").toString());
    Launch.Result r =
        Launch.run(
            tmp,
            env,
            List.of(
                home.resolve("bin/sf2loki").toString(),
                "--config",
                home.resolve("config/sf2loki.example.yaml").toString(),
                "--check"),
            60);
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("config check OK");
  }

  private static Set<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .collect(Collectors.toCollection(java.util.TreeSet::new));
    }
  }
}
