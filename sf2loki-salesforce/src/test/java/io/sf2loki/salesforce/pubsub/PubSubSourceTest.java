package io.sf2loki.salesforce.pubsub;

import static io.sf2loki.salesforce.pubsub.BridgeTestSupport.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.status.Redaction;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.pubsub.BridgeTestSupport.FakeLane;
import io.sf2loki.salesforce.pubsub.BridgeTestSupport.GatedSleeper;
import io.sf2loki.salesforce.pubsub.BridgeTestSupport.IdleRunner;
import io.sf2loki.salesforce.pubsub.BridgeTestSupport.ProducingRunner;
import io.sf2loki.salesforce.pubsub.PubSubSource.SObjectLister;
import io.sf2loki.salesforce.pubsub.PubSubSource.TopicOwnership;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.testing.LogRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class PubSubSourceTest {
  private static final String LOGIN = "/event/LoginEventStream";
  private static final String API = "/event/ApiEventStream";
  private static final Duration HOUR = Duration.ofHours(1);

  private final FakeTime fake = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final GatedSleeper sleeper = new GatedSleeper(Duration.ofMinutes(1));
  private final StopSignal stop = new StopSignal();
  private final List<StopSignal> extraStops = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger sourceLogger = (Logger) LoggerFactory.getLogger(PubSubSource.class);
  private double jitter = 0.0;

  @BeforeEach
  void attachLogs() {
    logs.start();
    sourceLogger.addAppender(logs);
    sourceLogger.setLevel(Level.INFO);
  }

  @AfterEach
  void tearDown() {
    stop.stop();
    extraStops.forEach(StopSignal::stop);
    sourceLogger.detachAppender(logs);
    sourceLogger.setLevel(null);
  }

  private TimeSource time() {
    return new TimeSource(fake.wall(), fake.ticker(), sleeper);
  }

  private PubSubSource source(
      List<String> topics,
      Predicate<String> filter,
      Duration interval,
      long bridgeMaxBytes,
      TopicRunner runner,
      SObjectLister lister,
      TopicOwnership ownership) {
    return new PubSubSource(
        PubSubSourceSettings.of(topics, filter, interval, bridgeMaxBytes),
        runner,
        lister,
        ownership,
        time(),
        () -> jitter);
  }

  private PubSubSource explicitSource(List<String> topics, long bridgeMaxBytes, TopicRunner r) {
    return source(topics, t -> true, HOUR, bridgeMaxBytes, r, noLister(), TopicOwnership.none());
  }

  private static SObjectLister noLister() {
    return () -> {
      throw new AssertionError("no discovery expected");
    };
  }

  /** Runs the source on its own thread; completes with the throwable run ended with (or null). */
  private static CompletableFuture<Throwable> start(
      PubSubSource source, EntryEmitter lane, StopSignal stop) {
    CompletableFuture<Throwable> done = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("test-source-run")
        .start(
            () -> {
              try {
                source.run(lane, stop);
                done.complete(null);
              } catch (Throwable t) {
                done.complete(t);
              }
            });
    return done;
  }

  private static void assertEnded(CompletableFuture<Throwable> done) throws Exception {
    assertThat(done.get(2, TimeUnit.SECONDS)).isNull();
  }

  private static void assertZeroAccounting(PubSubBridge bridge) {
    assertThat(bridge.entries()).isZero();
    assertThat(bridge.chargedBytes()).isZero();
    assertThat(bridge.waitingWriters()).isZero();
  }

  /** Under the appender's lock (AppenderBase.doAppend holds it): readers' threads log too. */
  private long logCount(Level level, String message) {
    synchronized (logs) {
      return logs.list.stream()
          .filter(e -> e.getLevel() == level && e.getFormattedMessage().equals(message))
          .count();
    }
  }

  /** Discovery answers in order: a list of sObject names or an exception per call. */
  private static final class ScriptedLister implements SObjectLister {
    final BlockingQueue<Object> script = new LinkedBlockingQueue<>();
    final AtomicInteger calls = new AtomicInteger();

    ScriptedLister names(String... names) {
      script.add(List.of(names));
      return this;
    }

    ScriptedLister failures(int n) {
      for (int i = 0; i < n; i++) {
        script.add(new SoqlException("HTTP 503: unavailable", 503, null, null));
      }
      return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<String> sobjectNames() throws Exception {
      calls.incrementAndGet();
      Object next = script.poll();
      if (next == null) {
        throw new AssertionError("unscripted discovery call");
      }
      if (next instanceof Exception e) {
        throw e;
      }
      return (List<String>) next;
    }
  }

  /** Records claims and releases; a release notes whether the topic's reader had been joined. */
  private static final class FakeOwnership implements TopicOwnership {
    final Set<String> owned;
    final IdleRunner runner;
    final List<String> events = new CopyOnWriteArrayList<>();
    final AtomicInteger firstPass = new AtomicInteger();

    FakeOwnership(Set<String> owned, IdleRunner runner) {
      this.owned = owned;
      this.runner = runner;
    }

    @Override
    public boolean ownedElsewhere(String topic) {
      return owned.contains(topic);
    }

    @Override
    public void claim(String topic) {
      events.add("claim " + topic);
    }

    @Override
    public void release(String topic) {
      Thread t = runner.threads.get(topic);
      boolean joined = t != null && !t.isAlive() && runner.ends(topic) > 0;
      events.add("release " + topic + (joined ? "" : " BEFORE-JOIN"));
    }

    @Override
    public void firstPassDone() {
      firstPass.incrementAndGet();
    }
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  @DisplayName("PIPE-2: the source is named pubsub and feeds the streaming lane")
  void identity() {
    PubSubSource s = explicitSource(List.of(LOGIN), 0, new IdleRunner());
    assertThat(s.name()).isEqualTo("pubsub");
    assertThat(s.lane()).isEqualTo(Lane.STREAMING);
  }

  @Test
  @DisplayName("PS-18: a full lane blocks the bridge and a full bridge blocks the reader")
  void ps18_backpressureEndToEnd() throws Exception {
    ProducingRunner runner = new ProducingRunner(100, Long.MAX_VALUE); // cost 164 each
    PubSubSource source = explicitSource(List.of(LOGIN), 300, runner);
    PubSubBridge bridge = source.bridge();
    FakeLane lane = new FakeLane(1, stop);
    CompletableFuture<Throwable> done = start(source, lane, stop);

    // lane holds e1, the drain loop is blocked handing e2, e3 is queued (328 ≥ 300), e4 waits
    eventually(
        () ->
            lane.queue.size() == 1
                && lane.blockedEmits.get() == 1
                && bridge.waitingWriters() == 1
                && runner.attempts(LOGIN) == 4,
        "steady backpressure");
    assertThat(bridge.chargedBytes()).isEqualTo(328);
    assertThat(bridge.entries()).isEqualTo(2);
    assertThat(bridge.hasByteRoom()).isFalse();

    assertThat(lane.take().checkpoint().value()).isEqualTo("1");
    eventually(
        () ->
            runner.attempts(LOGIN) == 5
                && bridge.waitingWriters() == 1
                && lane.blockedEmits.get() == 1,
        "one entry moved through every stage");
    assertThat(bridge.chargedBytes()).isEqualTo(328);

    stop.stop();
    assertEnded(done);
    assertZeroAccounting(bridge);
    assertThat(runner.running).hasValue(0);
  }

  @Test
  @DisplayName(
      "PIPE-24(1)(2): bridge_max_bytes=300, one entry pulled, term ended mid-drain; the next term"
          + " delivers within a bounded wait, and a fully drained term leaves zero accounting")
  void pipe24_termEndedMidDrainThenNewTermDelivers() throws Exception {
    ProducingRunner endless = new ProducingRunner(100, Long.MAX_VALUE);

    // term 1: pull one entry, let the reader refill the bridge, end the term mid-drain
    PubSubSource term1 = explicitSource(List.of(LOGIN), 300, endless);
    FakeLane lane1 = new FakeLane(1, stop);
    CompletableFuture<Throwable> done1 = start(term1, lane1, stop);
    lane1.take();
    eventually(() -> term1.bridge().waitingWriters() == 1, "term 1 reader refilled the bridge");
    stop.stop();
    assertEnded(done1);
    assertZeroAccounting(term1.bridge());
    assertThat(term1.bridge().isClosed()).isTrue();
    assertThat(endless.running).hasValue(0);

    // term 2 on the same process (same runner, fresh source and bridge): an entry arrives
    StopSignal stop2 = new StopSignal();
    extraStops.add(stop2);
    ProducingRunner finite = new ProducingRunner(100, 10);
    PubSubSource term2 = explicitSource(List.of(LOGIN), 300, finite);
    FakeLane lane2 = new FakeLane(1, stop2);
    CompletableFuture<Throwable> done2 = start(term2, lane2, stop2);
    assertThat(lane2.take()).isNotNull(); // within 2 s

    // drain the rest of the term fully: all accounting returns to zero before and after stop
    for (int i = 2; i <= 10; i++) {
      assertThat(lane2.take().checkpoint().value()).isEqualTo(Integer.toString(i));
    }
    eventually(
        () -> term2.bridge().entries() == 0 && term2.bridge().chargedBytes() == 0,
        "term 2 drained");
    assertThat(term2.bridge().waitingWriters()).isZero();
    stop2.stop();
    assertEnded(done2);
    assertZeroAccounting(term2.bridge());
  }

  @Test
  @DisplayName("PS-16: on stop every topic ends and run returns after all readers finished")
  void ps16_stopJoinsAllReaders() throws Exception {
    List<String> topics = List.of(LOGIN, API, "/event/LogoutEventStream");
    IdleRunner runner = new IdleRunner();
    PubSubSource source = explicitSource(topics, 0, runner);
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);
    eventually(() -> topics.stream().allMatch(t -> runner.starts(t) == 1), "all readers run");
    assertThat(runner.threads.get(LOGIN).getName()).isEqualTo("sf2loki-pubsub-reader-" + LOGIN);

    stop.stop();
    assertEnded(done);
    for (String t : topics) {
      assertThat(runner.ends(t)).isEqualTo(1);
      assertThat(runner.threads.get(t).isAlive()).as("reader of %s joined", t).isFalse();
    }
    assertThat(source.activeTopics()).isEmpty();
  }

  @Test
  @DisplayName(
      "PS-16: a runner that throws or returns early is logged and restarted with backoff;"
          + " other topics and the source keep running")
  void ps16_failingRunnerIsRestarted() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    IdleRunner idle = new IdleRunner();
    TopicRunner runner =
        (topic, bridge, s) -> {
          if (topic.equals(LOGIN)) {
            int n = calls.incrementAndGet();
            if (n == 1) {
              throw new IllegalStateException("boom");
            }
            if (n == 2) {
              return; // returned before stop
            }
          }
          idle.run(topic, bridge, s);
        };
    PubSubSource source = explicitSource(List.of(LOGIN, API), 0, runner);
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);

    eventually(() -> idle.starts(LOGIN) == 1 && idle.starts(API) == 1, "both topics run");
    assertThat(calls).hasValue(3);
    assertThat(sleeper.shortSleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(logCount(Level.ERROR, "pubsub topic reader failed; restarting")).isEqualTo(1);
    assertThat(logCount(Level.WARN, "pubsub topic reader returned before stop; restarting"))
        .isEqualTo(1);
    assertThat(done).isNotDone();

    stop.stop();
    assertEnded(done);
  }

  @Test
  @DisplayName(
      "OBS-34: a failing reader's ERROR (error field and logged exception chain) and failed"
          + " discovery attempts mask the reporter's secret, access tokens and Bearer credentials")
  void obs34_readerAndDiscoveryFailureLogsMaskSecrets() throws Exception {
    String url = "https://acme.my.salesforce.com/services/data?access_token=00Dxx!tok3n";
    AtomicInteger calls = new AtomicInteger();
    IdleRunner idle = new IdleRunner();
    TopicRunner runner =
        (topic, bridge, s) -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException(
                "call failed: " + url, new java.io.IOException("echo s3cr3t-ps"));
          }
          idle.run(topic, bridge, s);
        };
    ScriptedLister lister = new ScriptedLister();
    for (int i = 0; i < 3; i++) {
      lister.script.add(
          new SoqlException(
              "HTTP 401: s3cr3t-ps; Authorization: Bearer 00Dxx!tok3n", 401, null, null));
    }
    PubSubSource source =
        source(List.of(LOGIN, "*"), t -> true, HOUR, 0, runner, lister, TopicOwnership.none())
            .reportTo(new SourceStatusBoard(fake.wall(), new Redaction(List.of("s3cr3t-ps"))));
    try (LogRecorder rec = LogRecorder.of(PubSubSource.class)) {
      CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);
      assertThat(sleeper.awaitGate()).isEqualTo(HOUR); // the failed first pass is over
      eventually(() -> idle.starts(LOGIN) == 1, "the reader restarted");
      List<String> lines = rec.failures();
      assertThat(lines).hasSize(5); // reader ERROR, 3 attempt WARNs, the pass ERROR
      assertThat(lines)
          .allSatisfy(l -> assertThat(l).doesNotContain("s3cr3t-ps").doesNotContain("tok3n"));
      assertThat(lines)
          .filteredOn(l -> l.startsWith("pubsub topic reader failed; restarting"))
          .singleElement()
          .satisfies(
              l ->
                  assertThat(l)
                      .contains("access_token=***")
                      .contains("RedactedException: java.io.IOException: echo ***"));
      assertThat(lines)
          .filteredOn(l -> l.startsWith("pubsub topic discovery"))
          .allSatisfy(l -> assertThat(l).contains("HTTP 401: ***; Authorization: Bearer ***"));
      stop.stop();
      assertEnded(done);
    }
  }

  @Test
  @DisplayName("PS-16/PIPE-12: a JVM Error in a reader ends the term after all readers joined")
  void ps16_errorEndsTheTerm() throws Exception {
    IdleRunner idle = new IdleRunner();
    TopicRunner runner =
        (topic, bridge, s) -> {
          if (topic.equals(API)) {
            throw new OutOfMemoryError("simulated");
          }
          idle.run(topic, bridge, s);
        };
    PubSubSource source = explicitSource(List.of(LOGIN, API), 0, runner);
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);
    assertThat(done.get(2, TimeUnit.SECONDS)).isInstanceOf(OutOfMemoryError.class);
    eventually(() -> idle.ends(LOGIN) == idle.starts(LOGIN), "login reader ended");
    assertThat(source.activeTopics()).isEmpty();
  }

  @Test
  @DisplayName("PS-19: topics are de-duplicated and filtered; one reader per surviving topic")
  void ps19_explicitTopicsFilteredAndDeduplicated() throws Exception {
    IdleRunner runner = new IdleRunner();
    PubSubSource source =
        source(
            List.of(LOGIN, API, LOGIN, "/event/UriEventStream"),
            t -> !t.contains("Uri"),
            HOUR,
            0,
            runner,
            noLister(),
            TopicOwnership.none());
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);
    eventually(() -> runner.starts(LOGIN) == 1 && runner.starts(API) == 1, "readers run");
    assertThat(source.activeTopics()).containsExactly(API, LOGIN);
    assertThat(runner.starts("/event/UriEventStream")).isZero();
    stop.stop();
    assertEnded(done);
    assertThat(runner.starts(LOGIN)).isEqualTo(1);
  }

  @Test
  @DisplayName("PS-21: without '*' and no topic surviving the filters the source ends at once")
  void ps21_noTopicsEndsAtOnce() throws Exception {
    IdleRunner runner = new IdleRunner();
    PubSubSource source =
        source(List.of(LOGIN), t -> false, HOUR, 0, runner, noLister(), TopicOwnership.none());
    assertEnded(start(source, new FakeLane(1, stop), stop));
    assertThat(runner.starts).isEmpty();
    assertZeroAccounting(source.bridge());
  }

  @Test
  @DisplayName(
      "PS-20/SRC-24: discovery keeps *EventStream names as /event/<Name>, de-duplicated against"
          + " explicit topics, filtered, and skips owned categories with INFO once")
  void ps20_discoveryFiltersAndOwnership() throws Exception {
    IdleRunner runner = new IdleRunner();
    FakeOwnership own = new FakeOwnership(Set.of(API), runner);
    ScriptedLister lister =
        new ScriptedLister()
            .names(
                "Account",
                "LoginEventStream",
                "LogoutEventStream",
                "ApiEventStream",
                "LoginEvent",
                "UriEventStream")
            .names("LoginEventStream", "LogoutEventStream", "ApiEventStream");
    PubSubSource source =
        source(List.of("*", LOGIN), t -> !t.contains("Uri"), HOUR, 0, runner, lister, own);
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);

    assertThat(sleeper.awaitGate()).isEqualTo(HOUR); // jitter 0
    assertThat(source.activeTopics()).containsExactly(LOGIN, "/event/LogoutEventStream");
    assertThat(own.events).containsExactly("claim /event/LogoutEventStream");
    assertThat(own.firstPass).hasValue(1);
    sleeper.open();
    sleeper.awaitGate(); // second pass done: same topics, owned topic skipped silently
    assertThat(source.activeTopics()).containsExactly(LOGIN, "/event/LogoutEventStream");
    assertThat(
            logCount(
                Level.INFO,
                "discovered pubsub topic skipped: its category is owned by another source"))
        .isEqualTo(1);
    eventually(() -> runner.starts("/event/LogoutEventStream") == 1, "discovered reader runs");
    assertThat(runner.starts(LOGIN)).isEqualTo(1);

    stop.stop();
    assertEnded(done);
    assertThat(own.events)
        .containsExactly("claim /event/LogoutEventStream", "release /event/LogoutEventStream");
    assertThat(own.firstPass).hasValue(1);
  }

  @Test
  @DisplayName(
      "PS-20/PS-21: 3 failed attempts (1 s doubling + jitter) log ERROR and use explicit topics;"
          + " the failed startup discovery is retried every rediscovery_interval + jitter")
  void ps20_failedDiscoveryUsesExplicitThenRetries() throws Exception {
    jitter = 0.5;
    IdleRunner runner = new IdleRunner();
    FakeOwnership own = new FakeOwnership(Set.of(), runner);
    ScriptedLister lister = new ScriptedLister().failures(3).names("LogoutEventStream");
    PubSubSource source = source(List.of(LOGIN, "*"), t -> true, HOUR, 0, runner, lister, own);
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);

    assertThat(sleeper.awaitGate()).isEqualTo(HOUR.plusMinutes(15)); // + 0.5 × interval/2
    assertThat(lister.calls).hasValue(3);
    assertThat(sleeper.shortSleeps())
        .containsExactly(Duration.ofMillis(1250), Duration.ofMillis(2500));
    assertThat(
            logCount(
                Level.ERROR, "pubsub topic discovery failed; this pass uses explicit topics only"))
        .isEqualTo(1);
    assertThat(logCount(Level.WARN, "pubsub topic discovery attempt failed")).isEqualTo(3);
    assertThat(source.activeTopics()).containsExactly(LOGIN);
    assertThat(own.firstPass).hasValue(1); // the failed first pass counts as finished (SRC-24)

    sleeper.open();
    sleeper.awaitGate();
    assertThat(source.activeTopics()).containsExactly(LOGIN, "/event/LogoutEventStream");
    stop.stop();
    assertEnded(done);
  }

  @Test
  @DisplayName(
      "PS-21: with rediscovery_interval 0 a failed startup discovery is retried every 5 min +"
          + " jitter until a pass succeeds, then discovery stops; the source keeps running")
  void ps21_zeroIntervalRetriesEveryFiveMinutes() throws Exception {
    jitter = 1.0;
    IdleRunner runner = new IdleRunner();
    ScriptedLister lister = new ScriptedLister().failures(3).names("LogoutEventStream");
    PubSubSource source =
        source(List.of("*"), t -> true, Duration.ZERO, 0, runner, lister, TopicOwnership.none());
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);

    assertThat(sleeper.awaitGate()).isEqualTo(Duration.ofMinutes(5).plusSeconds(150));
    assertThat(source.activeTopics()).isEmpty();
    assertThat(done).isNotDone(); // with '*' the source never ends on its own
    sleeper.open();
    eventually(() -> runner.starts("/event/LogoutEventStream") == 1, "discovered reader runs");
    assertThat(sleeper.gated.poll(50, TimeUnit.MILLISECONDS)).isNull(); // no rediscovery
    assertThat(lister.calls).hasValue(4);
    assertThat(done).isNotDone();
    stop.stop();
    assertEnded(done);
  }

  @Test
  @DisplayName(
      "PS-21: rediscovery adds new topics, never starts a second reader, retires a topic absent"
          + " from two consecutive successful passes (reader joined before its category is"
          + " released), and a failed pass retires nothing")
  void ps21_rediscovery() throws Exception {
    String a = "/event/AEventStream";
    String b = "/event/BEventStream";
    String c = "/event/CEventStream";
    IdleRunner runner = new IdleRunner();
    FakeOwnership own = new FakeOwnership(Set.of(), runner);
    ScriptedLister lister =
        new ScriptedLister()
            .names("AEventStream", "BEventStream") // pass 1: A, B start
            .names("AEventStream", "CEventStream") // pass 2: C starts; B absent once
            .failures(3) // pass 3 fails: nothing retired
            .names("AEventStream", "CEventStream") // pass 4: B absent twice → retired
            .names("AEventStream", "BEventStream", "CEventStream"); // pass 5: B back, new reader
    PubSubSource source = source(List.of("*"), t -> true, HOUR, 0, runner, lister, own);
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);

    sleeper.awaitGate();
    assertThat(source.activeTopics()).containsExactly(a, b);
    sleeper.open();

    sleeper.awaitGate();
    assertThat(source.activeTopics()).containsExactly(a, b, c);
    sleeper.open();

    sleeper.awaitGate();
    assertThat(source.activeTopics()).containsExactly(a, b, c);
    assertThat(own.events).doesNotContain("release " + b);
    sleeper.open();

    sleeper.awaitGate();
    assertThat(source.activeTopics()).containsExactly(a, c);
    assertThat(runner.ends(b)).isEqualTo(1);
    assertThat(own.events).contains("release " + b); // not "BEFORE-JOIN"
    eventually(
        () ->
            logCount(
                    Level.INFO,
                    "pubsub topic absent from two consecutive discovery passes; retiring its reader")
                == 1,
        "one retirement INFO");
    sleeper.open();

    sleeper.awaitGate();
    assertThat(source.activeTopics()).containsExactly(a, b, c);
    eventually(() -> runner.starts(b) == 2, "B has a new reader");
    assertThat(runner.starts(a)).isEqualTo(1); // never a second reader for a live topic
    assertThat(runner.starts(c)).isEqualTo(1);
    assertThat(lister.calls).hasValue(7);

    stop.stop();
    assertEnded(done);
    assertThat(own.events.subList(0, 5))
        .containsExactly("claim " + a, "claim " + b, "claim " + c, "release " + b, "claim " + b);
    assertThat(own.events.subList(5, own.events.size()))
        .containsExactlyInAnyOrder("release " + a, "release " + b, "release " + c);
  }

  @Test
  @DisplayName("PS-21: a topic absent from one pass and back in the next is not retired")
  void ps21_absentOnceIsKept() throws Exception {
    String a = "/event/AEventStream";
    IdleRunner runner = new IdleRunner();
    ScriptedLister lister =
        new ScriptedLister().names("AEventStream").names().names("AEventStream").names();
    PubSubSource source =
        source(List.of("*"), t -> true, HOUR, 0, runner, lister, TopicOwnership.none());
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);
    for (int pass = 1; pass <= 4; pass++) {
      sleeper.awaitGate();
      assertThat(source.activeTopics()).as("after pass %d", pass).containsExactly(a);
      if (pass < 4) {
        sleeper.open();
      }
    }
    assertThat(runner.starts(a)).isEqualTo(1);
    stop.stop();
    assertEnded(done);
  }

  @Test
  @DisplayName("SRC-2/PIPE-23: stop during a discovery retry wait ends the source promptly")
  void stopDuringDiscoveryRetry() throws Exception {
    IdleRunner runner = new IdleRunner();
    ScriptedLister lister = new ScriptedLister().failures(3);
    PubSubSource source =
        source(List.of("*", LOGIN), t -> true, HOUR, 0, runner, lister, TopicOwnership.none());
    CompletableFuture<Throwable> done = start(source, new FakeLane(10, stop), stop);
    sleeper.awaitGate();
    stop.stop();
    assertEnded(done);
    assertThat(runner.ends(LOGIN)).isEqualTo(1);
    assertThat(source.activeTopics()).isEmpty();
  }

  @Test
  @DisplayName("PIPE-20: a source runs once; a new term needs a fresh instance")
  void runsOnce() throws Exception {
    PubSubSource source = explicitSource(List.of(LOGIN), 0, new IdleRunner());
    stop.stop();
    source.run(e -> true, stop);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> source.run(e -> true, stop))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  @DisplayName("PS-17: entries flow from several topics to the lane in per-topic order")
  void entriesFlowInPerTopicOrder() throws Exception {
    ProducingRunner runner = new ProducingRunner(10, 50);
    PubSubSource source = explicitSource(List.of(LOGIN, API), 1000, runner);
    FakeLane lane = new FakeLane(200, stop);
    CompletableFuture<Throwable> done = start(source, lane, stop);
    List<LogEntry> got = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      got.add(lane.take());
    }
    for (String t : List.of(LOGIN, API)) {
      assertThat(got.stream().filter(e -> e.checkpoint().key().equals("pubsub:" + t)))
          .extracting(e -> Long.parseLong(e.checkpoint().value()))
          .isSorted()
          .hasSize(50);
    }
    stop.stop();
    assertEnded(done);
    assertZeroAccounting(source.bridge());
  }
}
