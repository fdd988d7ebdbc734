package io.sf2loki.loki;

import io.sf2loki.loki.encode.EncodedRequest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Builds push requests (SPEC SINK-2…SINK-5): {@code Authorization: Basic base64("<tenant or
 * empty>:<token>")} when a token is set, else {@code X-Scope-OrgID} when a tenant is set; {@code
 * User-Agent: sf2loki/<version>}, {@code Content-Type} and, when compressed, {@code
 * Content-Encoding}; the SINK-3 request timeout. Immutable.
 */
final class LokiRequests {
  private final LokiSinkSettings settings;
  private final String authorization;

  LokiRequests(LokiSinkSettings settings) {
    this.settings = settings;
    this.authorization =
        settings.authToken() == null
            ? null
            : "Basic "
                + Base64.getEncoder()
                    .encodeToString(
                        ((settings.tenantId() == null ? "" : settings.tenantId())
                                + ":"
                                + settings.authToken())
                            .getBytes(StandardCharsets.UTF_8));
  }

  HttpRequest request(EncodedRequest req) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(settings.url())
            .timeout(settings.requestTimeout())
            .header("Content-Type", req.contentType())
            .header("User-Agent", "sf2loki/" + settings.version())
            .POST(HttpRequest.BodyPublishers.ofByteArray(req.body()));
    if (req.contentEncoding() != null) {
      b.header("Content-Encoding", req.contentEncoding());
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    } else if (settings.tenantId() != null) {
      b.header("X-Scope-OrgID", settings.tenantId());
    }
    return b.build();
  }
}
