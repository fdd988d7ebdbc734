package io.sf2loki.salesforce.rest;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Builds the JDK HTTP client used for Salesforce REST and OAuth calls (SRC-25). The daemon passes
 * an explicit executor it owns ({@link #newExecutor()}: one virtual thread per task, DESIGN's
 * concurrency rules) and shuts it down after closing the client.
 */
public final class SalesforceHttpClients {
  private SalesforceHttpClients() {}

  /**
   * An HTTP/1.1 client with the given connect timeout that never follows redirects (a redirect must
   * not carry the bearer token elsewhere).
   *
   * @param connectTimeout SRC-25: 10 s ({@link RestSettings#DEFAULT_CONNECT_TIMEOUT})
   */
  public static HttpClient create(Duration connectTimeout) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /**
   * As {@link #create(Duration)}, running the client's asynchronous work (response handling, {@code
   * sendAsync} completions) on {@code executor}, which the caller owns and shuts down after {@link
   * HttpClient#close()}.
   *
   * @param connectTimeout SRC-25: 10 s
   * @param executor the caller-owned executor, normally {@link #newExecutor()}
   */
  public static HttpClient create(Duration connectTimeout, Executor executor) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .executor(Objects.requireNonNull(executor, "executor"))
        .build();
  }

  /** A virtual-thread-per-task executor named {@code sf2loki-sf-http-N}; the caller closes it. */
  public static ExecutorService newExecutor() {
    return Executors.newThreadPerTaskExecutor(
        Thread.ofVirtual().name("sf2loki-sf-http-", 0).factory());
  }

  /** {@link #create(Duration)} with the SPEC default of 10 s. */
  public static HttpClient create() {
    return create(RestSettings.DEFAULT_CONNECT_TIMEOUT);
  }
}
