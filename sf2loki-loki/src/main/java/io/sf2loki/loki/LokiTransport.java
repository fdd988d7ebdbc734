package io.sf2loki.loki;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.RetrySchedule;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.status.Redaction;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.LokiResponses.Classification;
import io.sf2loki.loki.LokiResponses.Kind;
import io.sf2loki.loki.SinkPush.Exchange;
import io.sf2loki.loki.encode.EncodedRequest;
import io.sf2loki.loki.encode.LokiEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Loki request's exchange for {@link LokiHttpSink}: the body encoded on the CPU executor
 * (PIPE-26), the tenant's {@code Retry-After} gate (SINK-17), the HTTP call (SINK-3), SINK-8
 * classification of the whole body up to 64 KiB, and the resending of the same request after a
 * retryable answer as the caller's retry layer decides ({@link
 * io.sf2loki.core.spi.Sink.RequestAttempts}, SINK-9: the schedule, the waits and their metrics are
 * the lane's {@code RetrySchedule}, not the sink's). Owns the JDK {@link HttpClient} and its
 * virtual-thread executor ({@link #close()}), and the outage streak behind the ERROR/recovered
 * logs. Logs under {@link LokiHttpSink}'s logger. Thread-safe: both lanes may send concurrently.
 */
final class LokiTransport implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LokiHttpSink.class);
  private static final int BODY_EXCERPT = 512;
  private static final Attributes GATE = Attributes.of(Sf2lokiMetrics.LAYER, "tenant_gate");

  private final Sf2lokiMetrics metrics;
  private final Executor cpu;
  private final TenantGate gate;
  private final LokiEncoder encoder;
  private final LokiRequests requests;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final HttpClient client;
  private final StopSignal closed = new StopSignal();
  private final AtomicLong failureStreak = new AtomicLong();
  private final Redaction redaction;

  /** SINK-20: the {@code tenant} field of this sink's failure logs; empty without a tenant. */
  private final String tenant;

  LokiTransport(LokiSinkSettings settings, Sf2lokiMetrics metrics, Executor cpu, TenantGate gate) {
    this.metrics = metrics;
    this.cpu = cpu;
    this.gate = gate;
    this.encoder = LokiEncoder.of(settings.encoding(), settings.compression());
    this.requests = new LokiRequests(settings);
    this.redaction = new Redaction(secrets(settings));
    this.tenant = tenant(settings);
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(settings.connectTimeout())
            .executor(executor)
            .build();
  }

  /** Encodes on the CPU executor (PIPE-26); the caller's wait is interruptible. */
  EncodedRequest encode(List<LogEntry> entries, boolean withMetadata) throws InterruptedException {
    CompletableFuture<EncodedRequest> f =
        CompletableFuture.supplyAsync(() -> encoder.encode(entries, withMetadata), cpu);
    try {
      return f.get();
    } catch (InterruptedException e) {
      f.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Sends {@code req} until an answer other than 429/5xx/transport error, resending the same
   * request while {@code p.retries} grants another attempt (SINK-9; never with {@code
   * p.singleAttempt}) and waiting through it (stop-aware).
   *
   * @param unknownAtSend label sets without a high-water mark when sent (SINK-16)
   * @throws RetryableSinkException attempts exhausted, stop inside a wait, or the sink closed
   */
  Exchange send(EncodedRequest req, SinkPush p, Set<Map<String, String>> unknownAtSend)
      throws RetryableSinkException, InterruptedException {
    Sink.RequestAttempts attempts = p.retries.request();
    HttpRequest request = requests.request(req);
    long served = TenantGate.NONE;
    for (int attempt = 1; ; attempt++) {
      TenantGate.Entry pass = gate.enter(served, p.stop, closed);
      if (pass.waited()) {
        metrics.lokiRetryAfterWaits.add(1, GATE);
      }
      if (pass.pass() == TenantGate.Pass.STOPPED) {
        throw fail("loki push stopped inside a Retry-After window", 429, "", null, Duration.ZERO);
      }
      int status = 0;
      LokiBody body = LokiBody.EMPTY;
      Duration retryAfter = Duration.ZERO;
      IOException transport = null;
      try {
        HttpResponse<InputStream> resp =
            client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        status = resp.statusCode();
        body = LokiBody.read(resp.body());
        retryAfter =
            RetrySchedule.cap(
                RetryAfter.parse(resp.headers().firstValue("Retry-After").orElse(null)));
      } catch (IOException e) {
        transport = e;
      } finally {
        served = gate.exit(pass.pass(), retryAfter);
      }
      if (transport == null) {
        Classification c = LokiResponses.classify(status, body.text());
        if (c.kind() != Kind.RETRY_IN_SINK) {
          return new Exchange(
              status,
              body.text(),
              body.truncated(),
              c,
              req.body().length,
              unknownAtSend,
              retryAfter);
        }
      }
      String what =
          transport == null
              ? "HTTP " + status
              : "transport error: " + transport.getClass().getSimpleName();
      // the retry layer hears of the failure before any wait (PIPE-11) and decides (SINK-9)
      Optional<Duration> next = p.singleAttempt ? Optional.empty() : attempts.failed(retryAfter);
      if (next.isEmpty()) {
        throw fail(
            "loki push failed after " + attempt + " attempt(s): " + what,
            status,
            body.text(),
            transport,
            retryAfter);
      }
      Duration wait = next.get();
      log.atWarn()
          .addKeyValue("tenant", tenant)
          .addKeyValue("attempt", attempt)
          .addKeyValue("status", status)
          .addKeyValue("wait_ms", wait.toMillis())
          .addKeyValue("retry_after_s", retryAfter.toSeconds())
          .addKeyValue("error", what)
          .log("loki push failed; retrying");
      if (!attempts.await(wait, p.stop) || closed.isStopped()) {
        throw fail("loki push retry aborted by stop", status, body.text(), transport, retryAfter);
      }
    }
  }

  /** A stored answer ends the outage streak (INFO "loki push recovered" when there was one). */
  void recovered() {
    long streak = failureStreak.getAndSet(0);
    if (streak > 0) {
      log.atInfo().addKeyValue("failures", streak).log("loki push recovered");
    }
  }

  /** A retryable failure; ERROR on the 1st consecutive failure and every 10th after (SINK-8). */
  RetryableSinkException fail(
      String message, int status, String body, Throwable cause, Duration retryAfter) {
    long streak = failureStreak.incrementAndGet();
    if (streak == 1 || streak % 10 == 0) {
      var event =
          log.atError()
              .addKeyValue("tenant", tenant)
              .addKeyValue("status", status)
              .addKeyValue("consecutive_failures", streak)
              .addKeyValue("body", logExcerpt(body));
      if (cause instanceof java.io.IOException) {
        event = event.addKeyValue("error", causeChain(cause)); // an outage, not a bug: no trace
      } else {
        event = event.setCause(redaction.forLog(cause));
      }
      event.log(redaction.forLog(message));
    }
    return new RetryableSinkException(message, status, cause, retryAfter, excerpt(body));
  }

  /** {@code Class: message} of {@code t} and its causes (at most 4), redacted (OBS-34). */
  private String causeChain(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; t != null && i < 4; t = t.getCause(), i++) {
      if (i > 0) {
        sb.append(" <- ");
      }
      sb.append(t.getClass().getSimpleName());
      if (t.getMessage() != null) {
        sb.append(": ").append(redaction.forLog(t.getMessage()));
      }
    }
    return sb.toString();
  }

  /** SINK-20: the tenant a log line names ({@code tenant_id}), empty when none is configured. */
  static String tenant(LokiSinkSettings settings) {
    return settings.tenantId() == null ? "" : settings.tenantId();
  }

  /** SINK-20: this sink's tenant, as its log lines name it. */
  String tenant() {
    return tenant;
  }

  /**
   * {@code body} as a log line may show it (SPEC OBS-34): the auth token and the URL's user-info
   * and password masked, credential-looking parts masked, line breaks folded, then {@link
   * #excerpt(String)}.
   */
  String logExcerpt(String body) {
    return excerpt(redaction.forLog(body));
  }

  /** The secrets of {@code settings} a log line must not show: auth token, URL user-info. */
  static List<String> secrets(LokiSinkSettings settings) {
    List<String> out = new ArrayList<>();
    if (settings.authToken() != null) {
      out.add(settings.authToken());
    }
    String userInfo = settings.url().getRawUserInfo();
    if (userInfo != null) {
      out.add(userInfo);
      int colon = userInfo.indexOf(':');
      if (colon >= 0) {
        out.add(userInfo.substring(colon + 1));
      }
    }
    return out;
  }

  /** The first 512 characters of a stripped body, for logs and exceptions only. */
  static String excerpt(String body) {
    String s = body == null ? "" : body.strip();
    return s.length() <= BODY_EXCERPT ? s : s.substring(0, BODY_EXCERPT) + "…";
  }

  /** Ends gate and retry waits (a waiting send fails retryably) and closes the HTTP client. */
  @Override
  public void close() {
    closed.stop();
    client.close();
    executor.close();
  }
}
