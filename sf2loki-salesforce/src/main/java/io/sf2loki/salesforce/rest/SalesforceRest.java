package io.sf2loki.salesforce.rest;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * REST access to one org (SPEC SRC-17, SRC-20, SRC-25, AUTH-7): every call goes to the token's
 * {@code instance_url}, a 401 invalidates the token and is repeated once after a fresh mint.
 * Thread-safe.
 */
public interface SalesforceRest {
  /**
   * Runs {@code GET /services/data/v{api}/query?q=<soql>} and follows {@code nextRecordsUrl} while
   * {@code done} is false; the records of all batches form one result.
   *
   * <p>Records are passed on unchanged (including {@code attributes}) as ordered maps whose values
   * are {@code String}, {@code BigInteger} (integer literals), {@code Double} (literals with a
   * fraction or exponent), {@code Boolean}, {@code null}, nested maps and lists (SRC-7 typing).
   *
   * @param soql the query, built from validated identifiers and escaped literals (SRC-18)
   * @return every record of every batch
   * @throws SoqlThrottledException on 403 REQUEST_LIMIT_EXCEEDED
   * @throws InvalidFieldException on 400 INVALID_FIELD
   * @throws MalformedQueryException on 400 MALFORMED_QUERY
   * @throws MalformedResponseException on a 2xx body that is not an object with {@code records}
   * @throws SoqlException on any other non-2xx status, second 401, or transport failure
   * @throws InterruptedException if the calling thread is interrupted
   */
  List<Map<String, Object>> query(String soql) throws SoqlException, InterruptedException;

  /**
   * Downloads {@code path} (relative to {@code instance_url}, e.g. {@code
   * /services/data/v60.0/sobjects/EventLogFile/<Id>/LogFile}) into a spool, sending {@code
   * Accept-Encoding: gzip} and decoding a gzip body (ELF-16), then validates it (SRC-28). No byte
   * of the body is handed out before all of it arrived and passed {@link DownloadValidator}.
   *
   * @param expected the size Salesforce announced ({@code LogFileLength}), if any
   * @return the received body; the caller closes it
   * @throws DownloadThrottledException on 403 REQUEST_LIMIT_EXCEEDED
   * @throws InvalidBodyException on a 2xx body that is not the log (HTML page, non-log content
   *     type, size outside the tolerance)
   * @throws DownloadException on other non-2xx statuses (after the one 401 retry) and transport
   *     failures, including the 60 s body idle timeout (SRC-25)
   * @throws InterruptedException if the calling thread is interrupted
   */
  Spool download(String path, DownloadValidator.Expectation expected)
      throws DownloadException, InterruptedException;

  /** {@link #download(String, DownloadValidator.Expectation)} without a known size. */
  default Spool download(String path) throws DownloadException, InterruptedException {
    return download(path, DownloadValidator.Expectation.unknownSize());
  }

  /** The configured API version, e.g. {@code 60.0}. */
  String apiVersion();

  /** "Server now" (SRC-20): local wall clock shifted by the skew estimate when it exceeds 30 s. */
  Instant serverNow();
}
