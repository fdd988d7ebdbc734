package io.sf2loki.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SamplerTest {

  /** Vectors computed with Python: int.from_bytes(sha256(k).digest()[:8], 'big') % 10000. */
  @ParameterizedTest(name = "SRC-14 bucket of \"{0}\" is {1}")
  @CsvSource({
    "4ehU_U-nbQyAPFl1cJILm-,9940",
    "'',1652", // first byte >= 0x80: unsigned read matters
    "00000000000000000001,2974",
    "\u00e9\uD83D\uDE00,2074"
  })
  void precomputedVectors(String key, int bucket) throws Exception {
    assertThat(Sampler.bucket(key)).isEqualTo(bucket).isEqualTo(independentBucket(key));
  }

  @Test
  @DisplayName("SRC-14: keep iff bucket < rate x 10000; rate >= 1 keeps everything")
  void keepRule() throws Exception {
    String key = "4ehU_U-nbQyAPFl1cJILm-"; // bucket 9940
    assertThat(Sampler.keep(key, 1.0)).isTrue();
    assertThat(Sampler.keep(key, 2.0)).isTrue();
    assertThat(Sampler.keep(key, 0.9941)).isTrue();
    assertThat(Sampler.keep(key, 0.9939)).isFalse();
    assertThat(Sampler.keep(key, 0.994)).isFalse();
    assertThat(Sampler.keep(key, 0.99)).isFalse();
    assertThat(Sampler.keep(key, 0.0)).isFalse();
    assertThat(Sampler.keep("", 0.1653)).isTrue();
    assertThat(Sampler.keep("", 0.1651)).isFalse();
    // the product is a double, as in 1.x: 0.1652 * 10000 = 1652.0000000000002 > 1652
    assertThat(Sampler.keep("", 0.1652)).isTrue();
    assertThat(Sampler.keep(null, 1.0)).isTrue();
  }

  @Test
  @DisplayName("SRC-14: buckets agree with an independent BigInteger computation")
  void randomKeysAgree() throws Exception {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    for (int i = 0; i < 500; i++) {
      byte[] raw = new byte[rnd.nextInt(40)];
      rnd.nextBytes(raw);
      String key = new String(raw, StandardCharsets.ISO_8859_1);
      assertThat(Sampler.bucket(key)).as("seed %d", seed).isEqualTo(independentBucket(key));
    }
  }

  private static int independentBucket(String key) throws Exception {
    byte[] digest =
        MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    return new BigInteger(1, Arrays.copyOf(digest, 8)).mod(BigInteger.valueOf(10_000)).intValue();
  }
}
