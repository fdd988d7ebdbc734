package io.sf2loki.loki.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sf2loki.loki.encode.SnappyCodec.Implementation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/** SINK-18: the native and pure-Java snappy codecs, the fallback and the temp-dir setting. */
class SnappyCodecTest {

  /** Seeded inputs: compressible text, random bytes, empty and one byte. */
  private static List<byte[]> inputs(long seed) {
    Random r = new Random(seed);
    List<byte[]> out = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append("{\"EVENT_TYPE\":\"API\",\"USER\":\"u").append(r.nextInt(50)).append("\"}\n");
    }
    out.add(text.toString().getBytes(StandardCharsets.UTF_8));
    byte[] noise = new byte[70_000 + r.nextInt(10_000)];
    r.nextBytes(noise);
    out.add(noise);
    out.add(new byte[0]);
    out.add(new byte[] {42});
    return out;
  }

  @ParameterizedTest
  @ValueSource(longs = {1L, 7L, 20261202L})
  @DisplayName("SINK-18, SINK-4: each codec decodes the other's raw snappy block (no framing)")
  void sink18CodecsReadEachOther(long seed) throws IOException {
    SnappyCodec nat = new SnappyCodec(Implementation.NATIVE);
    SnappyCodec java = new SnappyCodec(Implementation.JAVA);
    for (byte[] in : inputs(seed)) {
      byte[] fromNative = nat.compress(in);
      byte[] fromJava = java.compress(in);
      assertThat(java.uncompress(fromNative)).as("seed %d", seed).isEqualTo(in);
      assertThat(nat.uncompress(fromJava)).as("seed %d", seed).isEqualTo(in);
      assertThat(org.xerial.snappy.Snappy.uncompress(fromJava)).isEqualTo(in);
      // block format: starts with the varint length, never the framed-stream 0xff header
      if (in.length > 0) {
        assertThat(fromJava[0]).isNotEqualTo((byte) 0xff);
      }
      byte[] scratch = new byte[java.maxCompressedLength(in.length)];
      assertThat(java.compress(in, 0, in.length, scratch)).isEqualTo(fromJava);
    }
  }

  @Test
  @DisplayName("SINK-18: the Java codec decodes the Loki sample push body and rejects garbage")
  void sink18JavaDecodesLokiSample() throws IOException {
    SnappyCodec java = new SnappyCodec(Implementation.JAVA);
    assertThat(java.uncompress(Fixtures.resource("push_request.pb.snappy")))
        .isEqualTo(Fixtures.resource("push_request.pb"));
    assertThatThrownBy(() -> java.uncompress(new byte[] {(byte) 0x10, (byte) 0xff, 3}))
        .isInstanceOf(IOException.class);
  }

  @Test
  @DisplayName("SINK-18: a native load failure selects the Java codec with one WARN")
  void sink18NativeFailureFallsBackWithWarn() {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger(SnappyCodec.class);
    logs.start();
    logger.addAppender(logs);
    try {
      assertThat(
              SnappyCodec.select(
                  () -> {
                    throw new UnsatisfiedLinkError("failed to map segment from shared object");
                  }))
          .isEqualTo(Implementation.JAVA);
      assertThat(SnappyCodec.select(() -> {})).isEqualTo(Implementation.NATIVE);
    } finally {
      logger.detachAppender(logs);
    }
    assertThat(logs.list).hasSize(1);
    assertThat(logs.list.get(0).getLevel().toString()).isEqualTo("WARN");
    assertThat(logs.list.get(0).getFormattedMessage())
        .contains("pure-Java snappy", "sink.loki.snappy_tempdir");
  }

  @Test
  @DisplayName(
      "SINK-18, CFG-34: a child JVM whose snappy temp dir is a file falls back to Java, WARNs, and"
          + " its push body decodes to the golden protobuf with snappy-java")
  void sink18ChildJvmWithUnusableTempDir(@TempDir Path dir) throws Exception {
    Path notADir = Files.writeString(dir.resolve("not-a-directory"), "x");
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                javaBin,
                "-cp",
                System.getProperty("java.class.path"),
                SnappyFallbackMain.class.getName(),
                notADir.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("impl=JAVA");
    assertThat(out.split("snappy-java native library cannot load", -1)).hasSize(2);
    String b64 =
        Arrays.stream(out.split("\n"))
            .filter(l -> l.startsWith("body="))
            .findFirst()
            .orElseThrow()
            .substring("body=".length())
            .strip();
    byte[] body = Base64.getDecoder().decode(b64);
    assertThat(org.xerial.snappy.Snappy.uncompress(body))
        .isEqualTo(Fixtures.resource("push_request_sf2loki.pb"));
  }
}
