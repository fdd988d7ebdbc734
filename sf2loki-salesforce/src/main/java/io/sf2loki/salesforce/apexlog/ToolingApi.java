package io.sf2loki.salesforce.apexlog;

import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.Spool;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Salesforce calls the ApexLog source makes (SPEC SRC-17, APX-1, APX-5): Tooling queries, body
 * downloads and server now. {@link #over(HttpSalesforceRest)} adapts the real REST client; tests
 * pass a fake. Implementations are thread-safe.
 */
public interface ToolingApi {
  /**
   * Runs a Tooling query ({@code GET /services/data/v{api}/tooling/query?q=}) and follows {@code
   * nextRecordsUrl}; the records of all batches form one result (SRC-17).
   *
   * @throws io.sf2loki.salesforce.rest.SoqlThrottledException on 403 REQUEST_LIMIT_EXCEEDED
   *     (counted as {@code sf2loki_salesforce_api_throttled{api="soql"}} by the client)
   * @throws SoqlException on any other failure (non-2xx, second 401, transport, malformed body)
   * @throws InterruptedException if interrupted
   */
  List<Map<String, Object>> toolingQuery(String soql) throws SoqlException, InterruptedException;

  /**
   * Downloads a log body ({@code path} relative to {@code instance_url}, e.g. {@code
   * /services/data/v60.0/tooling/sobjects/ApexLog/<Id>/Body}); a 401 is retried once after a fresh
   * token (APX-5).
   *
   * @param expected the log's {@code LogLength}, if listed ({@link DownloadValidator}, SRC-28)
   * @return the whole body; the caller closes it
   * @throws io.sf2loki.salesforce.rest.DownloadThrottledException on 403 REQUEST_LIMIT_EXCEEDED
   *     (counted as {@code sf2loki_salesforce_api_throttled{api="apexlog_body"}} by the client)
   * @throws io.sf2loki.salesforce.rest.InvalidBodyException on a 2xx body that is not the log
   * @throws DownloadException on any other failure; {@link DownloadException#status()} is 0 for
   *     transport failures and timeouts
   * @throws InterruptedException if interrupted
   */
  Spool downloadBody(String path, DownloadValidator.Expectation expected)
      throws DownloadException, InterruptedException;

  /** The API version, e.g. {@code 60.0}. */
  String apiVersion();

  /** Server now (SRC-20). */
  Instant serverNow();

  /** The real client: Tooling queries and downloads counted under {@code api="apexlog_body"}. */
  static ToolingApi over(HttpSalesforceRest rest) {
    Objects.requireNonNull(rest, "rest");
    return new ToolingApi() {
      @Override
      public List<Map<String, Object>> toolingQuery(String soql)
          throws SoqlException, InterruptedException {
        return rest.toolingQuery(soql);
      }

      @Override
      public Spool downloadBody(String path, DownloadValidator.Expectation expected)
          throws DownloadException, InterruptedException {
        return rest.download(path, HttpSalesforceRest.API_APEXLOG_BODY, expected);
      }

      @Override
      public String apiVersion() {
        return rest.apiVersion();
      }

      @Override
      public Instant serverNow() {
        return rest.serverNow();
      }
    };
  }
}
