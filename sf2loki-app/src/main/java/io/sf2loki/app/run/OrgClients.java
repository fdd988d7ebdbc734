package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.OrgIdResolver;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.rest.RestSettings;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import io.sf2loki.salesforce.source.SalesforceOrg;
import java.net.http.HttpClient;
import java.util.concurrent.ExecutorService;

/**
 * The process-lifetime Salesforce clients of one org (SPEC PIPE-20): the HTTP client, the token
 * provider (AUTH-1), the org-id resolver (AUTH-8) and the REST client. Sources of every term share
 * them. The HTTP client runs on an executor this object owns (virtual threads) and shuts down in
 * {@link #close()} after the client.
 */
final class OrgClients implements AutoCloseable {
  final OrgConfig org;
  private final ExecutorService httpExecutor = SalesforceHttpClients.newExecutor();
  final HttpClient http;
  final TokenProvider tokens;
  final OrgIdResolver orgIds;
  final HttpSalesforceRest rest;

  /**
   * Builds the clients without any network call.
   *
   * @throws IllegalArgumentException when the private key cannot be parsed (message names no
   *     secret)
   */
  OrgClients(OrgConfig org, Sf2lokiMetrics metrics, TimeSource time, SpoolDirectory spool) {
    this.org = org;
    this.http = SalesforceHttpClients.create(RestSettings.DEFAULT_CONNECT_TIMEOUT, httpExecutor);
    this.tokens = new TokenProvider(org.salesforce().auth(), http, metrics, time);
    this.orgIds = new OrgIdResolver(org.salesforce().orgId().orElse(null), tokens, http, time);
    this.rest =
        new HttpSalesforceRest(tokens, org.salesforce().apiVersion(), http, metrics, time, spool);
  }

  /**
   * The startup probe (AUTH-9): mints a token even when {@code org_id} is configured, then resolves
   * the org id.
   *
   * @return the org id
   * @param stop the process stop signal: it ends the probe's calls and waits (CLI-3), never by
   *     interrupting the caller
   * @throws AuthException when minting or userinfo fails (carries the Salesforce error code), or
   *     when {@code stop} ended a call
   * @throws InterruptedException if interrupted
   */
  String probe(StopSignal stop) throws AuthException, InterruptedException {
    tokens.mint(stop);
    return orgIds.orgId(stop);
  }

  /** The clients as the source factories see them ({@link SalesforceOrg}). */
  SalesforceOrg api() {
    return new SalesforceOrg(rest, tokens, orgIds);
  }

  @Override
  public void close() {
    orgIds.close();
    tokens.close();
    http.close();
    httpExecutor.close();
  }
}
