package io.sf2loki.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.cpu.CpuPool;
import io.sf2loki.salesforce.pubsub.PubSubChannels;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Smoke test only: the Pub/Sub harness wiring works on tiny data (real loopback gRPC). */
class PubSubEndToEndSmokeTest {
  @Test
  @DisplayName(
      "PS-3, PS-10: the Pub/Sub harness ships every pre-published event once and checkpoints"
          + " every topic")
  void harnessShipsEveryEvent() throws Exception {
    List<String> topics =
        List.of(SimPubSub.LOGIN_TOPIC, SimPubSub.API_ANOMALY_TOPIC, SimPubSub.ACCOUNT_CDC_TOPIC);
    try (SimPubSub sim =
            SimPubSub.builder()
                .port(0)
                .auth(PubSubSimServer.ORG_ID, PubSubSimServer.INSTANCE_URL, t -> true)
                .manualKeepalives()
                .start();
        PubSubChannels channels =
            new PubSubChannels(Map.of("", PubSubChannels.Settings.of(sim.target(), false)));
        CpuPool cpu = new CpuPool(2)) {
      for (String t : topics) {
        sim.publish(t, 1000); // 3,000 = three full batches: no flush_interval wait
      }
      PubSubEndToEnd.Run.Context ctx =
          PubSubEndToEnd.context(channels.channel(""), topics, 100, cpu);
      // Run.once checks the acknowledged count and one checkpoint per topic itself
      PubSubEndToEnd.Run r =
          PubSubEndToEnd.Run.once("smoke", ctx, 3000, ProcessHandle.current().pid());
      assertThat(r.entries()).isEqualTo(3000);
      assertThat(r.lineBytes()).isPositive();
      for (String t : topics) {
        assertThat(sim.stats(t).maxOutstanding()).isLessThanOrEqualTo(100);
      }
    }
  }
}
