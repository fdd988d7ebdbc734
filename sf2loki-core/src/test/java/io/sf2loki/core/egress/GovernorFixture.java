package io.sf2loki.core.egress;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.slf4j.LoggerFactory;

/** Shared wiring for governor tests: metrics, log capture, waiter threads, clean-up. */
abstract class GovernorFixture {
  static final long BUDGET = 1000;

  final InMemoryMetricReader reader = InMemoryMetricReader.create();
  final SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader).build();
  final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(EgressGovernor.class);
  private final Level oldLevel = logger.getLevel();
  private final List<Thread> threads = new ArrayList<>();
  private final List<StopSignal> stops = new CopyOnWriteArrayList<>();

  GovernorFixture() {
    logs.start();
    logger.addAppender(logs);
    logger.setLevel(Level.DEBUG);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    stops.forEach(StopSignal::stop);
    for (Thread t : threads) {
      t.interrupt();
      t.join(TimeUnit.SECONDS.toMillis(5));
    }
    logger.detachAppender(logs);
    logger.setLevel(oldLevel);
    provider.close();
  }

  static Instant at(String iso) {
    return Instant.parse(iso);
  }

  StopSignal newStop() {
    StopSignal s = new StopSignal();
    stops.add(s);
    return s;
  }

  EgressGovernor budgetGovernor(TimeSource time, BudgetAction action, Optional<String> stored) {
    return new EgressGovernor(new EgressSettings(0, 0, BUDGET, action), time, metrics, stored);
  }

  /** Runs {@code admit} on a new named platform thread. */
  CompletableFuture<Admission> admitAsync(
      String name, EgressGovernor g, long bytes, long lines, StopSignal stop) {
    return runAsync(name, () -> g.admit(bytes, lines, stop));
  }

  interface Call<T> {
    T call() throws Exception;
  }

  <T> CompletableFuture<T> runAsync(String name, Call<T> call) {
    CompletableFuture<T> f = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                f.complete(call.call());
              } catch (Throwable e) {
                f.completeExceptionally(e);
              }
            },
            name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
    return f;
  }

  Thread thread(String name) {
    return threads.stream().filter(t -> t.getName().equals(name)).findFirst().orElseThrow();
  }

  /** The collected value of a gauge with the empty attribute set (NaN when absent). */
  double gauge(String name) {
    return reader.collectAllMetrics().stream()
        .filter(m -> m.getName().equals(name))
        .flatMap(m -> m.getDoubleGaugeData().getPoints().stream())
        .filter(p -> p.getAttributes().isEmpty())
        .mapToDouble(DoublePointData::getValue)
        .findFirst()
        .orElse(Double.NaN);
  }

  double pausedGauge() {
    return gauge("sf2loki_egress_paused");
  }

  double usedGauge() {
    return gauge("sf2loki_egress_budget_used_bytes");
  }

  List<ILoggingEvent> logged(Level level, String message) {
    return logs.list.stream()
        .filter(e -> e.getLevel() == level && e.getFormattedMessage().equals(message))
        .toList();
  }
}
