package io.sf2loki.salesforce.rest;

/** HTTP 403 {@code REQUEST_LIMIT_EXCEEDED} on a download (ELF-8, APX-6). */
public final class DownloadThrottledException extends DownloadException {
  public DownloadThrottledException(String message) {
    super(message, 403, "REQUEST_LIMIT_EXCEEDED", null);
  }
}
