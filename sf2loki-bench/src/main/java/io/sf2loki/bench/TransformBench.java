package io.sf2loki.bench;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.transform.TransformAction;
import io.sf2loki.core.transform.TransformChain;
import io.sf2loki.core.transform.TransformSpec;
import io.sf2loki.salesforce.elf.ElfStages;
import io.sf2loki.salesforce.elf.RowTransform;
import io.sf2loki.salesforce.source.SourceTransforms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Transforms (XF-1…XF-6, XF-15) on parsed ELF rows: a salted {@code hash} of {@code CLIENT_IP}
 * (random per row: a SHA-256 per row; {@code hash} keeps no memo), a {@code mask} of {@code
 * USER_NAME} and a {@code regex_replace} of 15/18-character Salesforce ids (with {@code \b} on both
 * sides, whose exact 1.x meaning costs look-arounds per position, and without) in {@code URI} (ten
 * distinct values; Login URIs repeat, so its memo hits) or, for {@code hash+mask+regexUniqueField},
 * in {@code REQUEST_ID} (unique per row: every regex runs, the memo never hits).
 *
 * <p>{@link #applyChain} copies one row into a {@code HashMap} and applies the chain; {@code
 * rules=none} is the copy alone, so the chain's cost per row is the difference.
 *
 * <p>{@link #elfRow} is the ELF path's per-row CPU work as the source does it — CSV bytes → row →
 * transforms → entry, through the source's reader and {@code RowShaper} with the rules wired the
 * way the daemon wires them ({@code SourceTransforms}: drop counting included) — so {@code
 * rules=none} against a three-rule set is the cost the rules add to an ELF row (issue 15 target: at
 * most 15 % slower). One operation = one row. {@link TransformRatio} runs it and prints the ratio.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TransformBench {
  @Param({"Login"})
  public String eventType;

  @Param({"none", "hash+mask+regex", "hash+mask+regexNoBoundary", "hash+mask+regexUniqueField"})
  public String rules;

  /** A 15- or 18-character Salesforce id; the first three characters (key prefix) kept. */
  private static final String ID = "(?P<prefix>[a-zA-Z0-9]{3})[a-zA-Z0-9]{12}(?:[a-zA-Z0-9]{3})?";

  private List<Map<String, Object>> rows;
  private TransformChain chain;
  private byte[] csv;
  private ElfStages.Shaper elfShaper;

  @Setup
  public void setup() {
    rows = new ArrayList<>(ElfStages.parseAll(BenchData.csv(eventType, CsvParseBench.ROWS)));
    chain =
        rules.equals("none")
            ? TransformChain.EMPTY
            : TransformChain.compile(
                List.of(
                    TransformSpec.of(TransformAction.HASH, "CLIENT_IP"),
                    TransformSpec.of(TransformAction.MASK, "USER_NAME"),
                    TransformSpec.regexReplace(
                        rules.endsWith("NoBoundary") ? ID : "\\b" + ID + "\\b",
                        "\\g<prefix>…",
                        rules.endsWith("UniqueField") ? "REQUEST_ID" : "URI")),
                "bench-salt");
    csv = BenchData.csv(eventType, CsvParseBench.ROWS);
    Sf2lokiMetrics metrics = BenchData.metrics();
    SourceTransforms wired =
        chain.isEmpty()
            ? SourceTransforms.NONE
            : new SourceTransforms(chain, "eventlogfile", metrics);
    elfShaper =
        new ElfStages.Shaper(
            eventType,
            ElfStages.header(csv),
            BenchData.METADATA_FIELDS,
            metrics,
            wired.isEmpty() ? RowTransform.NONE : wired::apply);
  }

  @Benchmark
  @OperationsPerInvocation(CsvParseBench.ROWS)
  public void applyChain(Blackhole bh) {
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> row = new HashMap<>(rows.get(i));
      bh.consume(chain.apply(row));
      bh.consume(row);
    }
  }

  @Benchmark
  @OperationsPerInvocation(CsvParseBench.ROWS)
  public long elfRow() {
    return ElfStages.parseAndShape(csv, elfShaper);
  }
}
