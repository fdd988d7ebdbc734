package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.transform.TransformAction;
import io.sf2loki.core.transform.TransformChain;
import io.sf2loki.core.transform.TransformSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * XF-15: transforms edit an ELF row in place ({@link EditableCsvRow}) and give exactly what the
 * same edits give on the row's plain {@code HashMap} copy: the map, the JSON line, labels, metadata
 * and timestamp. Seeded-random rows and edit sequences; the seed is in every failure message.
 */
class EditableCsvRowTest {
  private static final String[] NAMES = {
    "A", "B", "_extra", "USER_NAME", "CLIENT_IP", "Ü", "TIMESTAMP", "URI", "a"
  };
  private static final String[] KEYS = {
    "A", "B", "_extra", "USER_NAME", "CLIENT_IP", "Ü", "TIMESTAMP", "URI", "a", "NEW", "new2"
  };
  private static final String[] VALUES = {
    "",
    "v",
    "10.1.2.3",
    "user1@example.com",
    "/lightning/r/006xx000001abcdAAA/view",
    "é\"\u2028",
    "2024-06-05T05:41:17.937Z",
    "x,y"
  };

  private static String[] header(Random r) {
    String[] header = new String[1 + r.nextInt(7)];
    for (int i = 0; i < header.length; i++) {
      header[i] = NAMES[r.nextInt(NAMES.length)];
    }
    return header;
  }

  private static List<String> cells(Random r, int headerSize) {
    List<String> cells = new ArrayList<>();
    int n = r.nextInt(headerSize + 3);
    for (int i = 0; i < n; i++) {
      cells.add(VALUES[r.nextInt(VALUES.length)]);
    }
    return cells;
  }

  /** Applies one random edit to both maps and describes it. */
  private static String edit(Random r, Map<String, Object> a, Map<String, Object> b) {
    String key = KEYS[r.nextInt(KEYS.length)];
    int kind = r.nextInt(20);
    if (kind < 9) {
      String v = VALUES[r.nextInt(VALUES.length)] + r.nextInt(3);
      assertThat(a.put(key, v)).isEqualTo(b.put(key, v));
      return "put " + key + "=" + v;
    }
    if (kind < 16) {
      assertThat(a.remove(key)).isEqualTo(b.remove(key));
      return "remove " + key;
    }
    if (kind < 19) {
      Object v = r.nextBoolean() ? (Object) 7 : null;
      assertThat(a.put(key, v)).isEqualTo(b.put(key, v));
      return "put " + key + "=" + v + " (not a string)";
    }
    a.clear();
    b.clear();
    return "clear";
  }

  private static String lineOf(String[] header, Map<String, Object> row) {
    RowShaper.FileContext ctx =
        new RowShaper.FileContext(null, Instant.EPOCH, new CheckpointToken("k", "v"));
    ctx.header(List.of(header));
    return ctx.line(row);
  }

  @RepeatedTest(300)
  @DisplayName("XF-15: edits on an EditableCsvRow give the same map and line as on a HashMap copy")
  void xf15_sameAsHashMapCopy() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    String[] header = header(r);
    CsvRow row = new CsvRow(new CsvRow.Layout(header), cells(r, header.length));
    EditableCsvRow edit = new EditableCsvRow(row);
    Map<String, Object> ref = row.toMutableMap();
    Map<String, Object> before = row.toMutableMap();
    List<String> done = new ArrayList<>();
    int edits = r.nextInt(7);
    for (int i = 0; i < edits; i++) {
      done.add(edit(r, edit, ref));
      String why = "seed " + seed + " header " + List.of(header) + " edits " + done;
      assertThat(edit).as(why).isEqualTo(ref);
      assertThat(ref).as(why).isEqualTo(edit);
      assertThat(edit.size()).as(why).isEqualTo(ref.size());
      assertThat(edit.keySet()).as(why).isEqualTo(ref.keySet());
      assertThat(edit.hashCode()).as(why).isEqualTo(ref.hashCode());
      for (String k : KEYS) {
        assertThat(edit.get(k)).as(why + " get " + k).isEqualTo(ref.get(k));
        assertThat(edit.containsKey(k)).as(why + " has " + k).isEqualTo(ref.containsKey(k));
      }
      assertThat(lineOf(header, edit)).as(why).isEqualTo(CanonicalJson.write(ref));
    }
    assertThat(row).as("the parsed row is unchanged").isEqualTo(before);
  }

  @Test
  @DisplayName("XF-15: string edits and removals of header columns keep the row in cell form")
  void xf15_stringEditsStayCellBacked() {
    String[] header = {"A", "B", "A", "C"};
    CsvRow row = new CsvRow(new CsvRow.Layout(header), List.of("1", "2", "3"));
    EditableCsvRow edit = new EditableCsvRow(row);
    edit.put("A", "x");
    edit.remove("B");
    edit.put("C", "y");
    assertThat(edit.cellBacked()).isTrue();
    assertThat(edit).containsOnly(Map.entry("A", "x"), Map.entry("C", "y"));
    assertThat(lineOf(header, edit)).isEqualTo("{\"A\": \"x\", \"C\": \"y\"}");
    assertThat(row).containsEntry("A", "3").containsEntry("B", "2").containsEntry("C", "");
    edit.put("NEW", "z");
    assertThat(edit.cellBacked()).isFalse();
    assertThat(edit).containsOnly(Map.entry("A", "x"), Map.entry("C", "y"), Map.entry("NEW", "z"));
  }

  private static List<TransformSpec> rules(Random r) {
    List<TransformSpec> specs = new ArrayList<>();
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      String field = KEYS[r.nextInt(KEYS.length)];
      specs.add(
          switch (r.nextInt(5)) {
            case 0 -> TransformSpec.of(TransformAction.HASH, field);
            case 1 -> TransformSpec.of(TransformAction.MASK, field);
            case 2 -> TransformSpec.of(TransformAction.DROP_FIELD, field);
            case 3 -> TransformSpec.regexReplace("\\b[a-z]{2}(?P<t>\\d)?", "<\\g<t>>", field);
            default -> TransformSpec.dropRow(Map.of(field, r.nextBoolean() ? "*@*" : "v"));
          });
    }
    return specs;
  }

  @RepeatedTest(200)
  @DisplayName("XF-15: a CSV row shaped with transforms gives the entry the HashMap copy gives")
  void xf15_shapedEntrySameAsCopy() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    String[] header = header(r);
    List<String> cells = cells(r, header.length);
    List<TransformSpec> specs = rules(r);
    TransformChain chain = TransformChain.compile(specs, r.nextBoolean() ? "" : "salt");
    Sf2lokiMetrics metrics = new Sf2lokiMetrics(SdkMeterProvider.builder().build(), "test");
    RowShaper shaper =
        new RowShaper(
            "Login",
            "TIMESTAMP",
            List.of("USER_NAME", "URI"),
            1.0,
            List.of("CLIENT_IP", "user_name", "a"),
            row -> chain.apply(row).kept(),
            metrics);
    CsvRow row = new CsvRow(new CsvRow.Layout(header), cells);
    Map<String, Object> copy = new HashMap<>(row.toMutableMap());
    LogEntry fast = shaper.shape(row, context(header));
    LogEntry slow = shaper.shape(copy, context(header));
    String why = "seed " + seed + " header " + List.of(header) + " cells " + cells + " " + specs;
    if (slow == null) {
      assertThat(fast).as(why).isNull();
      return;
    }
    assertThat(fast).as(why).isNotNull();
    assertThat(fast.line()).as(why).isEqualTo(slow.line());
    assertThat(fast.labels()).as(why).isEqualTo(slow.labels());
    assertThat(fast.structuredMetadata()).as(why).isEqualTo(slow.structuredMetadata());
    assertThat(fast.timestamp()).as(why).isEqualTo(slow.timestamp());
    assertThat(fast.lineBytes()).as(why).isEqualTo(slow.lineBytes());
  }

  private static RowShaper.FileContext context(String[] header) {
    RowShaper.FileContext ctx =
        new RowShaper.FileContext(
            Instant.parse("2024-06-05T00:00:00Z"),
            Instant.parse("2024-06-06T00:00:00Z"),
            new CheckpointToken("k", "v"));
    ctx.header(List.of(header));
    return ctx;
  }
}
