package io.sf2loki.loki.encode;

import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * Child-JVM entry of {@link SnappyCodecTest} (SINK-18): selects the codec with the temp directory
 * given as {@code args[0]} (as {@code sink.loki.snappy_tempdir} would), encodes the golden push
 * batch through {@link ProtobufEncoder} and prints {@code impl=<NAME>} and {@code body=<base64>}.
 */
public final class SnappyFallbackMain {
  private SnappyFallbackMain() {}

  public static void main(String[] args) {
    SnappyCodec.Implementation impl = SnappyCodec.load(Optional.of(Path.of(args[0])));
    EncodedRequest req =
        new ProtobufEncoder(new SnappyCodec()).encode(Fixtures.pushRequestBatch(), true);
    System.out.println("impl=" + impl);
    System.out.println("body=" + Base64.getEncoder().encodeToString(req.body()));
  }
}
