package io.sf2loki.salesforce.rest;

import java.net.http.HttpClient;
import java.time.Duration;

/** Builds the JDK HTTP client used for Salesforce REST and OAuth calls (SRC-25). */
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

  /** {@link #create(Duration)} with the SPEC default of 10 s. */
  public static HttpClient create() {
    return create(RestSettings.DEFAULT_CONNECT_TIMEOUT);
  }
}
