package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * XF-15: the per-thread memo of {@code regex_replace} results returns exactly what the rule
 * computes, for repeated, colliding, evicted and over-long values, on several threads.
 */
class ValueMemoTest {
  private static final PortableRegex ID =
      PortableRegex.compile("\\b(?P<prefix>[a-zA-Z0-9]{3})[a-zA-Z0-9]{12}(?:[a-zA-Z0-9]{3})?\\b");
  private static final Replacement KEEP_PREFIX = Replacement.parse("\\g<prefix>…", ID);

  private static String value(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> "10." + r.nextInt(4) + "." + r.nextInt(4) + "." + r.nextInt(300);
      case 1 -> "/lightning/r/006xx00000" + r.nextInt(5000) + "AAA/view";
      case 2 -> "x".repeat(ValueMemo.MAX_LENGTH - 2 + r.nextInt(5)) + r.nextInt(3);
      default -> r.nextInt(50) == 0 ? "" : "user" + r.nextInt(600) + "@example.com";
    };
  }

  @RepeatedTest(20)
  @DisplayName("XF-15: memoised regex_replace equals the direct computation")
  void xf15_memoEqualsDirect() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    Rule.RegexReplace rule = new Rule.RegexReplace(List.of("f"), ID, KEEP_PREFIX);
    ValueMemo regex = new ValueMemo(t -> ID.replaceAll(t, KEEP_PREFIX));
    for (int i = 0; i < 5_000; i++) {
      String v = value(r);
      Map<String, Object> row = new HashMap<>();
      row.put("f", v);
      rule.apply(row);
      assertThat(row.get("f"))
          .as("seed %d value %s", seed, v)
          .isEqualTo(ID.replaceAll(v, KEEP_PREFIX));
      assertThat(regex.apply(v))
          .as("seed %d value %s", seed, v)
          .isEqualTo(ID.replaceAll(v, KEEP_PREFIX));
    }
  }

  @Test
  @DisplayName("XF-15: a repeated short value is computed once per thread; a long one every time")
  void xf15_memoReusesShortValuesOnly() {
    AtomicInteger calls = new AtomicInteger();
    ValueMemo memo = new ValueMemo(t -> calls.incrementAndGet() + ":" + t);
    String first = memo.apply("10.0.0.1");
    assertThat(memo.apply(new String("10.0.0.1"))).isSameAs(first);
    assertThat(calls).hasValue(1);
    String longValue = "y".repeat(ValueMemo.MAX_LENGTH + 1);
    memo.apply(longValue);
    memo.apply(longValue);
    assertThat(calls).hasValue(3);
  }

  @Test
  @DisplayName("XF-15: threads sharing one memo each get the function's result")
  void xf15_memoPerThread() throws Exception {
    UnaryOperator<String> f = t -> Integer.toHexString(t.hashCode()) + t.length();
    ValueMemo memo = new ValueMemo(f);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<CompletableFuture<Boolean>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long seed = t;
        runs.add(
            CompletableFuture.supplyAsync(
                () -> {
                  Random r = new Random(seed);
                  for (int i = 0; i < 20_000; i++) {
                    String v = value(r);
                    if (!memo.apply(v).equals(f.apply(v))) {
                      return false;
                    }
                  }
                  return true;
                },
                pool));
      }
      for (CompletableFuture<Boolean> run : runs) {
        assertThat(run.get()).isTrue();
      }
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
    }
  }
}
