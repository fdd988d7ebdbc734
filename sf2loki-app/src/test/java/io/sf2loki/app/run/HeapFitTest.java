package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapFitTest {
  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private Sf2lokiConfig config(String batch, String pubsub) throws Exception {
    Path f = dir.resolve("c.yaml");
    Files.writeString(
        f,
        "salesforce: {auth_mode: client_credentials, client_id: c, client_secret: s,"
            + " login_url: 'https://example.my.salesforce.com'}\n"
            + "sources: {pubsub: {topics: [/event/LoginEventStream]"
            + pubsub
            + "}}\n"
            + "sink: {loki: {url: 'http://loki:3100/loki/api/v1/push'"
            + batch
            + "}}\n");
    return new ConfigLoader().load(f, Map.of());
  }

  @Test
  @DisplayName(
      "DEP-15: the defaults (2 × 256 MiB lanes × 1.5 + a 128 MiB bridge = 896 MiB) warn under a"
          + " 96 MiB heap, naming both keys and the sizes; they fit a 1.5 GiB heap")
  void dep15_defaultsWarnUnderASmallHeap() throws Exception {
    Sf2lokiConfig cfg = config("", "");
    assertThat(HeapFit.check(cfg, 96 * MIB))
        .hasValueSatisfying(
            w ->
                assertThat(w)
                    .contains("3 × sink.loki.batch.queue_max_bytes = 768 MiB")
                    .contains("Pub/Sub bridges (bridge_max_bytes, 128 MiB in all)")
                    .contains("can hold 896 MiB")
                    .contains("maximum heap of 96 MiB"));
    assertThat(HeapFit.check(cfg, 1536 * MIB)).isEmpty();
  }

  @Test
  @DisplayName(
      "DEP-15: queues sized for the heap (16 MiB lanes and bridge = 64 MiB) do not warn at 96 MiB;"
          + " a disabled bound (0) is not counted")
  void dep15_sizedQueuesFit() throws Exception {
    assertThat(
            HeapFit.check(
                config(", batch: {queue_max_bytes: 67108864}", ", bridge_max_bytes: 0"), 96 * MIB))
        .hasValueSatisfying(
            w -> assertThat(w).contains("192 MiB, more than").doesNotContain("bridges"));
    assertThat(
            HeapFit.check(
                config(", batch: {queue_max_bytes: 16777216}", ", bridge_max_bytes: 16777216"),
                96 * MIB))
        .isEmpty();
    assertThat(
            HeapFit.check(
                config(", batch: {queue_max_bytes: 0}", ", bridge_max_bytes: 0"), 96 * MIB))
        .isEmpty();
  }
}
