package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChainConcurrencyTest {

  @Test
  @DisplayName(
      "XF-1: one compiled chain serves concurrent workers with the single-threaded results")
  void xf1_sharedAcrossThreads() throws Exception {
    TransformChain chain =
        TransformChain.compile(
            List.of(
                TransformSpec.of(TransformAction.HASH, "IP"),
                TransformSpec.of(TransformAction.MASK, "USER"),
                TransformSpec.regexReplace("(?P<p>\\w{3})\\w+", "\\g<p>*", "URI"),
                TransformSpec.dropRow(Map.of("USER", "***@drop.example"))),
            "salt");
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      rows.add(
          Map.of(
              "IP", "10.0." + (i % 256) + "." + (i % 7),
              "USER", "u" + i + (i % 10 == 0 ? "@drop.example" : "@example.com"),
              "URI", "/services/data/v60.0/sobjects/Account/001" + i));
    }
    List<Object> expected = run(chain, rows);
    int workers = 4;
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<List<Object>>> results = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        Callable<List<Object>> task =
            () -> {
              start.await();
              return run(chain, rows);
            };
        results.add(pool.submit(task));
      }
      start.countDown();
      for (Future<List<Object>> f : results) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(expected).filteredOn(o -> o instanceof TransformChain.Verdict).hasSize(200);
  }

  private static List<Object> run(TransformChain chain, List<Map<String, Object>> rows) {
    List<Object> out = new ArrayList<>(rows.size());
    for (Map<String, Object> r : rows) {
      Map<String, Object> copy = new HashMap<>(r);
      TransformChain.Verdict v = chain.apply(copy);
      out.add(v.kept() ? copy : v);
    }
    return out;
  }
}
