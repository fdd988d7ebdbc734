package io.sf2loki.salesforce.pubsub;

import static com.salesforce.eventbus.protobuf.ReplayPreset.CUSTOM;
import static com.salesforce.eventbus.protobuf.ReplayPreset.EARLIEST;
import static com.salesforce.eventbus.protobuf.ReplayPreset.LATEST;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.status.Redaction;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.time.Backoff;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.rest.RestTestSupport;
import io.sf2loki.salesforce.testing.LogRecorder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReplayStartTest {
  private static final String TOPIC = "/event/LoginEventStream";
  private static final ByteString ID = ReaderHarness.rid(7);
  private static final Attributes PUBSUB = Attributes.of(Sf2lokiMetrics.SOURCE, "pubsub");

  private final ReaderHarness.FakeStore store = new ReaderHarness.FakeStore();
  private final DiscardedReplayIds discarded = new DiscardedReplayIds();
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final FakeTime time = new FakeTime(ReaderHarness.START);
  private final Backoff backoff =
      new Backoff(
          Duration.ofSeconds(1),
          Duration.ofSeconds(30),
          time.sleeper(),
          RandomGenerator.of("L64X128MixRandom"));

  private ReplayStart.Stored load() throws InterruptedException {
    return new ReplayStart(store::load, discarded, probe.metrics)
        .load(TOPIC, backoff, new StopSignal())
        .orElseThrow();
  }

  static Stream<Arguments> table() {
    ReplayStart.Stored present = new ReplayStart.Present(ID);
    ReplayStart.Stored absent = new ReplayStart.Absent();
    ReplayStart.Stored corrupt = new ReplayStart.Corrupt();
    return Stream.of(
        Arguments.of(present, CUSTOM, EARLIEST, ReplayPosition.after(ID)),
        Arguments.of(present, LATEST, EARLIEST, ReplayPosition.after(ID)),
        Arguments.of(present, EARLIEST, LATEST, ReplayPosition.after(ID)),
        Arguments.of(absent, CUSTOM, EARLIEST, ReplayPosition.of(LATEST)),
        Arguments.of(corrupt, CUSTOM, EARLIEST, ReplayPosition.of(EARLIEST)),
        Arguments.of(corrupt, CUSTOM, LATEST, ReplayPosition.of(LATEST)),
        Arguments.of(absent, LATEST, EARLIEST, ReplayPosition.of(LATEST)),
        Arguments.of(absent, EARLIEST, LATEST, ReplayPosition.of(EARLIEST)),
        Arguments.of(corrupt, LATEST, EARLIEST, ReplayPosition.of(LATEST)),
        Arguments.of(corrupt, EARLIEST, LATEST, ReplayPosition.of(EARLIEST)));
  }

  @ParameterizedTest(name = "{0} + {1} (on_invalid {2}) -> {3}")
  @MethodSource("table")
  @DisplayName("PS-13: starting position table")
  void ps13Table(
      ReplayStart.Stored stored,
      ReplayPreset preset,
      ReplayPreset onInvalid,
      ReplayPosition expected) {
    assertThat(ReplayStart.startPosition(stored, preset, onInvalid)).isEqualTo(expected);
  }

  @Test
  @DisplayName("PS-12: a stored base64 id loads as its opaque bytes")
  void ps12PresentLoads() throws Exception {
    store.values.put("pubsub:" + TOPIC, ReaderHarness.b64(ID));
    assertThat(load()).isEqualTo(new ReplayStart.Present(ID));
    assertThat(probe.collect().counter("sf2loki_checkpoint_load_errors", PUBSUB)).isZero();
  }

  @Test
  @DisplayName("PS-12: lenient base64 discards whitespace and characters outside the alphabet")
  void ps12Lenient() {
    String b64 = ReaderHarness.b64(ID); // AAAAAAAXkFAABw==
    assertThat(ReplayStart.decodeLenient(" AAAA\nAAAX kFAA\tBw==\r\n")).contains(ID);
    assertThat(ReplayStart.decodeLenient("AAAA-AAAX_kFAABw==")).contains(ID);
    assertThat(ReplayStart.decodeLenient(b64)).contains(ID);
    assertThat(ReplayStart.decodeLenient("AAAAAAAXkFAABw=")).isEmpty(); // bad length
    assertThat(ReplayStart.decodeLenient("AA=A")).isEmpty(); // bad padding
  }

  @Test
  @DisplayName("PS-12/PS-13: a corrupt stored value counts a load error and is Corrupt")
  void ps12CorruptCounts() throws Exception {
    store.values.put("pubsub:" + TOPIC, "not base64!");
    assertThat(load()).isEqualTo(new ReplayStart.Corrupt());
    assertThat(probe.collect().counter("sf2loki_checkpoint_load_errors", PUBSUB)).isEqualTo(1);
  }

  @Test
  @DisplayName("PS-12: absent key is Absent; an empty value is Corrupt")
  void ps12AbsentAndEmpty() throws Exception {
    assertThat(load()).isEqualTo(new ReplayStart.Absent());
    store.values.put("pubsub:" + TOPIC, "");
    assertThat(load()).isEqualTo(new ReplayStart.Corrupt());
  }

  @Test
  @DisplayName("PS-13/PS-15: an id discarded earlier in this process counts as corrupt")
  void ps13DiscardedIsCorrupt() throws Exception {
    store.values.put("pubsub:" + TOPIC, ReaderHarness.b64(ID));
    discarded.discard(TOPIC, ID);
    assertThat(load()).isEqualTo(new ReplayStart.Corrupt());
    assertThat(discarded.isDiscarded("/event/Other", ID)).isFalse();
  }

  @Test
  @DisplayName("PS-12: transient store errors are retried with backoff, never ending the topic")
  void ps12TransientRetried() throws Exception {
    store.values.put("pubsub:" + TOPIC, ReaderHarness.b64(ID));
    store.transientFailures.set(3);
    assertThat(load()).isEqualTo(new ReplayStart.Present(ID));
    assertThat(store.loads.get()).isEqualTo(4);
    assertThat(time.sleeps()).hasSize(3);
    assertThat(time.sleeps().get(0)).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1500));
    assertThat(time.sleeps().get(1)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3));
  }

  @Test
  @DisplayName("PS-12: a stop during store retries returns empty")
  void ps12StopDuringRetry() throws Exception {
    store.transientFailures.set(Integer.MAX_VALUE);
    StopSignal stop = new StopSignal();
    stop.stop();
    assertThat(new ReplayStart(store::load, discarded, probe.metrics).load(TOPIC, backoff, stop))
        .isEqualTo(Optional.empty());
  }

  @Test
  @DisplayName(
      "OBS-34: a store failure's WARN shows the error with the reporter's secret, the URL"
          + " user-info and a signature parameter masked")
  void obs34_loadFailureLogMasksSecrets() throws Exception {
    store.values.put("pubsub:" + TOPIC, ReaderHarness.b64(ID));
    store.failureMessage =
        "GET https://state:s3cr3t-st@s3.example/b/k?X-Amz-Signature=abcd1234 failed";
    store.transientFailures.set(1);
    SourceStatusBoard board =
        new SourceStatusBoard(time.wall(), new Redaction(List.of("s3cr3t-st")));
    try (LogRecorder logs = LogRecorder.of(ReplayStart.class)) {
      assertThat(
              new ReplayStart(store::load, discarded, probe.metrics)
                  .load(TOPIC, backoff, new StopSignal(), board))
          .contains(new ReplayStart.Present(ID));
      assertThat(logs.failures())
          .singleElement()
          .satisfies(
              l ->
                  assertThat(l)
                      .startsWith("pubsub checkpoint load failed; retrying")
                      .contains("error=GET https://***@s3.example/b/k?X-Amz-Signature=*** failed")
                      .doesNotContain("s3cr3t-st")
                      .doesNotContain("abcd1234"));
    }
  }
}
