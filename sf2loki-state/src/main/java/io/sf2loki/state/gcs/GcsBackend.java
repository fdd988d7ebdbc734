package io.sf2loki.state.gcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.state.object.ObjectBackend;
import io.sf2loki.state.object.PreconditionFailedException;
import io.sf2loki.state.object.TransientStoreException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The checkpoint object on Google Cloud Storage through the JSON API over {@code java.net.http}
 * (SPEC STATE-11; the wire protocol google-cloud-storage itself uses, without its 94 jars —
 * DESIGN.md "GCS store"):
 *
 * <ul>
 *   <li>read: {@code GET /storage/v1/b/<bucket>/o/<object>} (metadata; 404 = absent) for the
 *       generation, then {@code ?alt=media&ifGenerationMatch=<generation>} for that exact content;
 *       a content replaced in between (412/404) is a transient failure, so STATE-9 reads again.
 *   <li>write: {@code POST /upload/storage/v1/b/<bucket>/o?uploadType=media&name=<object>
 *       &ifGenerationMatch=<generation or 0>}; 412 {@code conditionNotMet} → {@link
 *       PreconditionFailedException}; the new generation is taken from the response.
 *   <li>transient: 429 ({@code rateLimitExceeded}), ≥ 500, I/O failures and timeouts.
 * </ul>
 */
public final class GcsBackend implements ObjectBackend {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final GcsStoreSettings settings;
  private final GcsAuth auth;
  private final HttpClient http;
  private final String objectPath;
  private final String uploadPath;

  /**
   * @param settings bucket, object, endpoint, timeout
   * @param auth the credentials ({@link GcsAuth#of})
   */
  public GcsBackend(GcsStoreSettings settings, GcsAuth auth) {
    if (settings.bucket().isBlank()) {
      throw new IllegalArgumentException("gcs bucket must not be empty");
    }
    this.settings = settings;
    this.auth = auth;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(settings.requestTimeout())
            .build();
    String root = settings.endpoint().toString().replaceAll("/+$", "");
    String bucket = encode(settings.bucket());
    this.objectPath = root + "/storage/v1/b/" + bucket + "/o/" + encode(settings.objectName());
    this.uploadPath =
        root
            + "/upload/storage/v1/b/"
            + bucket
            + "/o?uploadType=media&name="
            + encode(settings.objectName());
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Override
  public Optional<Stored> read() {
    HttpResponse<byte[]> meta = send(get(URI.create(objectPath)), "read");
    if (meta.statusCode() == 404) {
      return Optional.empty();
    }
    check(meta, "read metadata of");
    String generation = generationOf(meta.body(), "metadata");
    HttpResponse<byte[]> media =
        send(get(URI.create(objectPath + "?alt=media&ifGenerationMatch=" + generation)), "read");
    if (media.statusCode() == 404 || media.statusCode() == 412) {
      throw new TransientStoreException(
          describe() + " was replaced while being read (" + media.statusCode() + ")", null);
    }
    check(media, "read");
    return Optional.of(new Stored(media.body(), generation));
  }

  @Override
  public String write(byte[] body, String expectedVersion) {
    URI uri =
        URI.create(
            uploadPath + "&ifGenerationMatch=" + (expectedVersion == null ? "0" : expectedVersion));
    HttpRequest req =
        authorised(HttpRequest.newBuilder(uri), uri)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    HttpResponse<byte[]> resp = send(req, "write");
    if (resp.statusCode() == 412) {
      throw new PreconditionFailedException(
          "conditional write of "
              + describe()
              + " refused (412 "
              + reason(resp.body())
              + "): the object changed since it was read",
          412);
    }
    check(resp, "write");
    return generationOf(resp.body(), "write response");
  }

  @Override
  public void delete(String expectedVersion) {
    URI uri =
        URI.create(
            objectPath + (expectedVersion == null ? "" : "?ifGenerationMatch=" + expectedVersion));
    HttpResponse<byte[]> resp =
        send(authorised(HttpRequest.newBuilder(uri), uri).DELETE().build(), "delete");
    if (resp.statusCode() == 412) {
      throw new PreconditionFailedException(
          "conditional delete of " + describe() + " refused (412 " + reason(resp.body()) + ")",
          412);
    }
    if (resp.statusCode() != 404) {
      check(resp, "delete");
    }
  }

  private HttpRequest get(URI uri) {
    return authorised(HttpRequest.newBuilder(uri), uri).GET().build();
  }

  private HttpRequest.Builder authorised(HttpRequest.Builder b, URI uri) {
    try {
      auth.headers(uri).forEach((k, vs) -> vs.forEach(v -> b.header(k, v)));
    } catch (IOException e) {
      throw new TransientStoreException(
          "cannot obtain GCS credentials for " + describe() + ": " + e.getMessage(), e);
    }
    return b.timeout(settings.requestTimeout());
  }

  /** One request bounded as a whole, body included, by {@code requestTimeout} (STATE-14). */
  private HttpResponse<byte[]> send(HttpRequest req, String op) {
    CompletableFuture<HttpResponse<byte[]>> f =
        http.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray());
    try {
      return f.get(settings.requestTimeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new TransientStoreException(
          op + " of " + describe() + " timed out after " + settings.requestTimeout(), e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      throw new TransientStoreException(
          op
              + " of "
              + describe()
              + " failed: "
              + c.getClass().getSimpleName()
              + " "
              + c.getMessage(),
          c);
    } catch (InterruptedException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw new StateException("interrupted during " + op + " of " + describe(), e);
    }
  }

  private void check(HttpResponse<byte[]> resp, String op) {
    int s = resp.statusCode();
    if (s / 100 == 2) {
      return;
    }
    String msg = op + " " + describe() + " failed: " + s + " " + reason(resp.body());
    if (s == 429 || s >= 500) {
      throw new TransientStoreException(msg, null);
    }
    throw new StateException(msg);
  }

  private String generationOf(byte[] body, String what) {
    try {
      JsonNode gen = JSON.readTree(body).get("generation");
      if (gen != null && gen.asText().matches("[0-9]+")) {
        return gen.asText();
      }
    } catch (IOException e) {
      // reported below
    }
    throw new StateException("GCS " + what + " for " + describe() + " carries no generation");
  }

  /** The {@code error.errors[0].reason} of a JSON API error body, else its status text. */
  private static String reason(byte[] body) {
    try {
      JsonNode r = JSON.readTree(body).path("error").path("errors").path(0).path("reason");
      if (r.isTextual()) {
        return r.asText();
      }
    } catch (IOException e) {
      // not a JSON error body
    }
    return "(no error reason)";
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  @Override
  public void close() {
    http.close();
  }
}
