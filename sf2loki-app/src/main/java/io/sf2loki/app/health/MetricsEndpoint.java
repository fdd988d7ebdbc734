package io.sf2loki.app.health;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Renders the current metrics for {@code GET /metrics} on the health server (SPEC FEAT-15).
 * Implemented by {@code io.sf2loki.app.telemetry.Telemetry}; called on a health-server thread per
 * request.
 */
public interface MetricsEndpoint {
  /** The response {@code Content-Type}, e.g. {@code text/plain; version=0.0.4; charset=utf-8}. */
  String contentType();

  /**
   * Writes one scrape to {@code out}.
   *
   * @throws IOException if writing fails (the server then answers 500)
   */
  void writeTo(OutputStream out) throws IOException;
}
