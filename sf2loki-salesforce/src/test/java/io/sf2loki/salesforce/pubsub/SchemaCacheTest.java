package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SchemaCacheTest {
  private static String recordJson(String name) {
    return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[]}";
  }

  @Test
  @DisplayName("PS-4: schemas are cached by schema id, fetched once per id")
  void cachedPerSchemaId() throws Exception {
    AtomicInteger fetches = new AtomicInteger();
    SchemaCache cache =
        new SchemaCache(
            id -> {
              fetches.incrementAndGet();
              return recordJson("S_" + id);
            });

    assertThat(cache.cached("a")).isNull();
    Schema a = cache.get("a");
    assertThat(cache.get("a")).isSameAs(a);
    assertThat(cache.cached("a")).isSameAs(a);
    assertThat(cache.get("b").getName()).isEqualTo("S_b");
    assertThat(fetches).hasValue(2);
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  @DisplayName("PS-4: concurrent first use of one id fetches once (single flight)")
  void singleFlight() throws Exception {
    CountDownLatch fetchStarted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger fetches = new AtomicInteger();
    SchemaCache cache =
        new SchemaCache(
            id -> {
              fetches.incrementAndGet();
              fetchStarted.countDown();
              release.await(5, TimeUnit.SECONDS);
              return recordJson("S");
            });
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Schema> first = pool.submit(() -> cache.get("x"));
      assertThat(fetchStarted.await(5, TimeUnit.SECONDS)).isTrue();
      Future<Schema> second = pool.submit(() -> cache.get("x"));
      release.countDown();
      assertThat(second.get(5, TimeUnit.SECONDS)).isSameAs(first.get(5, TimeUnit.SECONDS));
      assertThat(fetches).hasValue(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @DisplayName("PS-4/PS-6: a failed fetch or unparsable schema is not cached; the next get retries")
  void failuresAreNotCached() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    SchemaCache cache =
        new SchemaCache(
            id -> {
              int n = calls.incrementAndGet();
              if (n == 1) {
                throw new IllegalStateException("UNAVAILABLE");
              }
              if (n == 2) {
                return "{not avro";
              }
              return recordJson("Ok");
            });

    assertThatThrownBy(() -> cache.get("s"))
        .isInstanceOf(SchemaCache.SchemaFetchException.class)
        .hasMessageContaining("s");
    assertThatThrownBy(() -> cache.get("s")).isInstanceOf(SchemaCache.SchemaFetchException.class);
    assertThat(cache.size()).isZero();
    assertThat(cache.get("s").getName()).isEqualTo("Ok");
    assertThat(cache.size()).isEqualTo(1);
  }
}
