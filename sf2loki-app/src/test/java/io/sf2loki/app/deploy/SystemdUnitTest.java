package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.testing.RepoRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The shipped systemd unit {@code deploy/systemd/sf2loki.service} (SPEC DEP-11). */
class SystemdUnitTest {
  private static final Path UNIT = RepoRoot.find().resolve("deploy/systemd/sf2loki.service");
  private static final String LAUNCHER = "/opt/sf2loki/bin/sf2loki";

  /** {@code Key=value} lines of the [Service] section; a repeated key keeps every value. */
  private static Map<String, List<String>> service() throws Exception {
    Map<String, List<String>> out = new LinkedHashMap<>();
    boolean inService = false;
    for (String line : Files.readAllLines(UNIT)) {
      String l = line.strip();
      if (l.startsWith("[")) {
        inService = l.equals("[Service]");
      } else if (inService && !l.isEmpty() && !l.startsWith("#")) {
        int eq = l.indexOf('=');
        out.computeIfAbsent(l.substring(0, eq), k -> new ArrayList<>()).add(l.substring(eq + 1));
      }
    }
    return out;
  }

  @Test
  @DisplayName(
      "DEP-11, CLI-5: the unit runs the launcher as a dynamic user with a state directory, strict"
          + " read-only system, no new privileges, no capabilities, and no restart after exit 2")
  void dep11_unitIsHardened() throws Exception {
    Map<String, List<String>> s = service();
    Map<String, String> required =
        Map.ofEntries(
            Map.entry("ExecStart", LAUNCHER + " --config /etc/sf2loki/config.yaml"),
            Map.entry("DynamicUser", "yes"),
            Map.entry("StateDirectory", "sf2loki"),
            Map.entry("ProtectSystem", "strict"),
            Map.entry("ProtectHome", "yes"),
            Map.entry("PrivateTmp", "yes"),
            Map.entry("NoNewPrivileges", "yes"),
            Map.entry("CapabilityBoundingSet", ""),
            Map.entry("Restart", "on-failure"),
            Map.entry("RestartPreventExitStatus", "2"),
            Map.entry("TimeoutStopSec", "40s"),
            Map.entry("SystemCallFilter", "@system-service"));
    required.forEach((k, v) -> assertThat(s.get(k)).as(k).containsExactly(v));
    assertThat(s).as("the JIT needs W+X memory").doesNotContainKey("MemoryDenyWriteExecute");
    assertThat(s.get("LoadCredential")).allMatch(c -> c.matches("[a-z.]+:/etc/sf2loki/secrets/.+"));
  }

  @Test
  @DisplayName(
      "DEP-11: systemd-analyze verify accepts the unit and its offline security exposure is at"
          + " most 2.0 (skipped where systemd-analyze is not installed)")
  void dep11_systemdAnalyzeAcceptsUnit() throws Exception {
    Optional<Path> found = ExternalTool.lookup("systemd-analyze");
    Assumptions.assumeTrue(found.isPresent(), "systemd-analyze not installed (optional check)");
    ExternalTool analyze = new ExternalTool(found.get());
    Path dir = Files.createTempDirectory("sf2loki-systemd-");
    try {
      Path launcher = dir.resolve("sf2loki");
      Files.writeString(launcher, "#!/bin/sh\n");
      Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path unit = dir.resolve("sf2loki.service");
      Files.writeString(unit, Files.readString(UNIT).replace(LAUNCHER, launcher.toString()));

      ExternalTool.Result verify =
          analyze.run(dir, Duration.ofSeconds(30), List.of("verify", unit.toString()));
      assertThat(verify.exitCode()).as(verify.output()).isZero();
      assertThat(verify.output()).as("no warnings").isBlank();

      ExternalTool.Result security =
          analyze.run(
              dir,
              Duration.ofSeconds(30),
              List.of("security", "--offline=yes", "--no-pager", unit.toString()));
      Matcher m =
          Pattern.compile("Overall exposure level for sf2loki.service: ([0-9.]+)")
              .matcher(security.output());
      assertThat(m.find()).as(security.output()).isTrue();
      assertThat(Double.parseDouble(m.group(1))).as(security.output()).isLessThanOrEqualTo(2.0);
    } finally {
      try (var walk = Files.walk(dir)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
