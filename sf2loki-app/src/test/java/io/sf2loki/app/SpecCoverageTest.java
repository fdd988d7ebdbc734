package io.sf2loki.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.testing.RepoRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The requirement-ID gate of SPEC §21: extracts every ID defined in docs/SPEC.md, collects the IDs
 * cited by tests (in {@code @DisplayName} texts such as {@code "PIPE-16: …"} or method names such
 * as {@code pipe16_…}), fails on a citation of an ID that does not exist and on an uncited ID of an
 * area listed in {@link #ENFORCED_AREAS} (areas whose issue was resolved), and writes the coverage
 * report to {@code target/spec-coverage.txt}.
 */
class SpecCoverageTest {
  /** Areas whose every ID must be cited by a test. Grows as issues are resolved. */
  static final Set<String> ENFORCED_AREAS =
      Set.of(
          "APX", "AUTH", "DOC", "EGR", "ELF", "HA", "OBJ", "PIPE", "PS", "SINK", "SRC", "STATE",
          "XF");

  private static final String AREAS =
      "CFG|CLI|SRC|PS|OBJ|ELF|APX|SINK|PIPE|EGR|STATE|HA|AUTH|OBS|XF|ORG|DOC|BF|DEP|FEAT";
  private static final Pattern DEFINED = Pattern.compile("\\*\\*((?:" + AREAS + ")-\\d+)\\*\\*");
  private static final Pattern CITED_TEXT = Pattern.compile("\\b((?:" + AREAS + ")-\\d+)\\b");
  private static final Pattern CITED_METHOD =
      Pattern.compile("\\b(" + AREAS.toLowerCase(Locale.ROOT) + ")(\\d+)_");

  private static Path repoRoot() {
    return RepoRoot.find();
  }

  @Test
  @DisplayName("§21: tests cite only requirement IDs that exist; coverage report written")
  void specIdsCitedByTestsExist() throws IOException {
    Path root = repoRoot();
    Set<String> defined = new TreeSet<>();
    Matcher d = DEFINED.matcher(Files.readString(root.resolve("docs/SPEC.md")));
    while (d.find()) {
      defined.add(d.group(1));
    }
    assertThat(defined).contains("PIPE-16", "ELF-10", "SINK-8");

    Map<String, Set<String>> citedBy = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(f -> f.toString().contains("/src/test/java/"))
          .forEach(
              f -> {
                String src;
                try {
                  src = Files.readString(f);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
                String name = f.getFileName().toString();
                Matcher t = CITED_TEXT.matcher(src);
                while (t.find()) {
                  citedBy.computeIfAbsent(t.group(1), k -> new TreeSet<>()).add(name);
                }
                Matcher m = CITED_METHOD.matcher(src);
                while (m.find()) {
                  String id = m.group(1).toUpperCase(Locale.ROOT) + "-" + m.group(2);
                  citedBy.computeIfAbsent(id, k -> new TreeSet<>()).add(name);
                }
              });
    }
    Set<String> unknown = new TreeSet<>(citedBy.keySet());
    unknown.removeAll(defined);

    StringBuilder report = new StringBuilder("SPEC requirement coverage by tests\n");
    Map<String, int[]> perArea = new TreeMap<>();
    Set<String> uncitedEnforced = new TreeSet<>();
    for (String id : defined) {
      String area = id.substring(0, id.indexOf('-'));
      int[] c = perArea.computeIfAbsent(area, k -> new int[2]);
      c[1]++;
      if (citedBy.containsKey(id)) {
        c[0]++;
      } else if (ENFORCED_AREAS.contains(area)) {
        uncitedEnforced.add(id);
      }
    }
    perArea.forEach(
        (area, c) -> report.append(String.format("%-6s %3d/%3d cited%n", area, c[0], c[1])));
    report.append("\nuncited: ");
    defined.stream()
        .filter(id -> !citedBy.containsKey(id))
        .forEach(id -> report.append(id).append(' '));
    report.append('\n');
    Path out = Path.of("target", "spec-coverage.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report);
    System.out.println(report);

    assertThat(unknown).as("tests cite IDs that SPEC.md does not define").isEmpty();
    assertThat(uncitedEnforced).as("uncited IDs of resolved areas").isEmpty();
  }
}
