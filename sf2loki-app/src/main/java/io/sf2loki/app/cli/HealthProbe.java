package io.sf2loki.app.cli;

import io.sf2loki.app.health.HealthAddress;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * One HTTP GET against the local health server, the job of {@code sf2loki healthcheck} (SPEC
 * CLI-12). The whole exchange (connect + response) is bounded by the timeout.
 */
public final class HealthProbe {
  /** SPEC CLI-12 timeout. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

  /**
   * Outcome of one probe.
   *
   * @param status the HTTP status, or -1 when no response arrived
   * @param detail a short human-readable description (status and body, or the transport error)
   */
  public record Result(int status, String detail) {
    /** Whether the probe passes (status 200). */
    public boolean ok() {
      return status == 200;
    }
  }

  private final Duration timeout;

  public HealthProbe() {
    this(DEFAULT_TIMEOUT);
  }

  /**
   * @param timeout bound on connect plus response (Duration, &gt; 0)
   */
  public HealthProbe(Duration timeout) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /**
   * GETs {@code http://<probe host>:<port><path>}.
   *
   * @param path the request target, starting with {@code /}
   * @return the result; transport errors and timeouts yield status -1, never an exception
   */
  public Result probe(HealthAddress address, String path) {
    URI uri;
    try {
      uri = URI.create("http://" + address.probeHost() + ":" + address.port() + path);
    } catch (IllegalArgumentException e) {
      return new Result(-1, "invalid health URL: " + e.getMessage());
    }
    try (HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build()) {
      HttpRequest req = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
      HttpResponse<String> resp =
          client
              .sendAsync(req, HttpResponse.BodyHandlers.ofString())
              .get(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
      String body = resp.body() == null ? "" : resp.body();
      if (body.length() > 200) {
        body = body.substring(0, 200);
      }
      return new Result(resp.statusCode(), resp.statusCode() + " " + body);
    } catch (java.util.concurrent.TimeoutException e) {
      return new Result(-1, "timed out after " + timeout.toMillis() + " ms");
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      return new Result(-1, describe(c));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-1, "interrupted");
    }
  }

  private static String describe(Throwable t) {
    String m = t.getMessage();
    if (t instanceof IOException && (m == null || m.isBlank())) {
      return t.getClass().getSimpleName();
    }
    return m == null ? t.getClass().getSimpleName() : m;
  }
}
