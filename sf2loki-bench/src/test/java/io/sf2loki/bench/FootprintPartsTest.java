package io.sf2loki.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The pure parts of the DEP-13 footprint harness (the harness itself is run by hand). */
class FootprintPartsTest {
  @Test
  @DisplayName("DEP-13: VmRSS and VmHWM are read from a /proc/<pid>/status text in KiB")
  void dep13_readsStatusFields() {
    List<String> status =
        List.of("Name:\tjava", "VmHWM:\t  245760 kB", "VmRSS:\t  201000 kB", "Threads:\t35");
    assertThat(RssSampler.field(status, "VmRSS")).isEqualTo(201_000);
    assertThat(RssSampler.field(status, "VmHWM")).isEqualTo(245_760);
    assertThat(RssSampler.field(status, "VmSwap")).isEqualTo(-1);
  }

  @Test
  @DisplayName("DEP-13: counters are summed by label from the Prometheus text, _total included")
  void dep13_sumsPrometheusCounters() {
    String text =
        """
        # TYPE sf2loki_events_ingested_total counter
        sf2loki_events_ingested_total{event_type="API",source="eventlogfile"} 10.0
        sf2loki_events_ingested_total{event_type="Login",source="eventlogfile"} 5.0
        sf2loki_events_ingested_total{event_type="LoginEventStream",source="pubsub"} 7.0
        sf2loki_events_ingested_bytes_total{source="pubsub"} 999.0
        """;
    assertThat(PromText.sumBy(text, "sf2loki_events_ingested", "source"))
        .isEqualTo(Map.of("eventlogfile", 15L, "pubsub", 7L));
  }

  @Test
  @DisplayName("DEP-13: options take a value, or are flags when followed by another option")
  void dep13_options() {
    assertThat(Footprint.options(new String[] {"--nmt", "--rate", "100", "--phases", "ready"}))
        .containsExactly(
            Map.entry("nmt", "true"), Map.entry("rate", "100"), Map.entry("phases", "ready"));
  }
}
