package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.PubSubScenario;
import io.sf2loki.sim.pubsub.PublishedEvent;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 acceptance "killing and restarting the service mid-stream loses nothing and re-sends only
 * the uncommitted tail", with a real kill: the daemon runs in a child JVM that gets SIGKILL (no
 * shutdown hook, no final commit) while it streams.
 */
class PubSubKillTest {
  private static final List<String> TOPICS =
      List.of(SimPubSub.LOGIN_TOPIC, SimPubSub.ACCOUNT_CDC_TOPIC);
  private static final int PER_TOPIC = 2500;

  /** Events of each topic committed according to the state file (position of the stored id). */
  private static long committed(PubSubScenario s, Map<String, List<PublishedEvent>> published) {
    long n = 0;
    for (String topic : TOPICS) {
      String stored = s.checkpoint(topic).orElse(null);
      if (stored == null) {
        continue;
      }
      List<PublishedEvent> events = published.get(topic);
      int idx = -1;
      for (int i = 0; i < events.size(); i++) {
        if (events.get(i).replayIdBase64().equals(stored)) {
          idx = i;
        }
      }
      assertThat(idx).as("stored id of %s is one of its events", topic).isNotNegative();
      n += idx + 1;
    }
    return n;
  }

  private static void await(String what, Duration limit, java.util.function.BooleanSupplier cond)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!cond.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(20); // loopback network e2e: poll the receiver
    }
  }

  @Test
  @DisplayName(
      "PS-11, PS-12, PIPE-1, PIPE-9: SIGKILL mid-stream and a restart lose nothing; the restart"
          + " re-sends exactly the events received but not yet committed")
  void ps12_sigkillMidStreamLosesNothing() throws Exception {
    try (PubSubScenario s = PubSubScenario.start()) {
      Map<String, List<PublishedEvent>> published = new java.util.HashMap<>();
      for (String t : TOPICS) {
        published.put(t, new ArrayList<>(s.pubsub().publish(t, PER_TOPIC)));
      }
      long total = (long) TOPICS.size() * PER_TOPIC;
      var cfg =
          s.writeConfig(
              TOPICS,
              "    replay_preset: EARLIEST\n",
              "    batch:\n      max_entries: 100\n    egress:\n      max_lines_per_second: 1500\n");
      var work = s.stateFile().getParent().getParent();

      try (ChildJvm first = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        await(
            "the first run delivers and commits part of the stream",
            Duration.ofSeconds(60),
            () -> {
              if (!first.process().isAlive()) {
                throw new AssertionError("child exited: " + first.stderr());
              }
              return s.receiver().totalEntries() >= 800 && committed(s, published) > 0;
            });
        first.process().destroyForcibly(); // SIGKILL: no shutdown, no final commit
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
      }
      long receivedBeforeKill = s.receiver().totalEntries();
      long committedBeforeKill = committed(s, published);
      assertThat(receivedBeforeKill).isLessThan(total); // killed mid-stream
      assertThat(committedBeforeKill).isLessThanOrEqualTo(receivedBeforeKill);
      long dupsBefore = s.receiver().duplicatesDropped();

      try (ChildJvm second = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        await(
            "the restart delivers the rest",
            Duration.ofSeconds(90),
            () -> {
              if (!second.process().isAlive()) {
                throw new AssertionError("child exited: " + second.stderr());
              }
              return s.receiver().totalEntries() == total && committed(s, published) == total;
            });
        second.process().destroy(); // SIGTERM: clean stop
        assertThat(second.waitFor(Duration.ofSeconds(30))).isZero();
      }
      // every event landed once; the re-sent ones are exactly those received but not committed
      assertThat(s.receiver().totalEntries()).isEqualTo(total);
      assertThat(s.receiver().duplicatesDropped() - dupsBefore)
          .isEqualTo(receivedBeforeKill - committedBeforeKill);
      for (String t : TOPICS) {
        assertThat(s.checkpoint(t)).contains(published.get(t).getLast().replayIdBase64());
      }
    }
  }
}
