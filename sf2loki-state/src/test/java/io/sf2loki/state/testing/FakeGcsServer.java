package io.sf2loki.state.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small fake of the GCS JSON API (JAVA-STACK §2.11: google-cloud-nio's LocalStorageHelper ignores
 * preconditions): object metadata and media GET, media upload, DELETE, with atomic generation
 * preconditions ({@code ifGenerationMatch}, 0 = must not exist) and the service's real error bodies
 * ({@code 412 conditionNotMet}, {@code 404 notFound}). Generations increase strictly, as on GCS.
 */
public final class FakeGcsServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PRECONDITION =
      "At least one of the pre-conditions you specified did not hold.";

  private record Blob(byte[] content, long generation) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Set<String> buckets = new HashSet<>();
  private final Map<String, Blob> objects = new HashMap<>();
  private long nextGeneration = 1_764_000_000_000_000L;
  private int writes;
  private volatile String lastAuthorization;

  private FakeGcsServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts the fake on a free loopback port. */
  public static FakeGcsServer start() throws IOException {
    return new FakeGcsServer();
  }

  /** {@code http://127.0.0.1:<port>}, the JSON API root. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Creates a bucket. */
  public synchronized void createBucket(String bucket) {
    buckets.add(bucket);
  }

  /** Writes an object unconditionally (an operator, a second writer, a corrupt object). */
  public synchronized void put(String bucket, String name, String content) {
    objects.put(
        bucket + "/" + name, new Blob(content.getBytes(StandardCharsets.UTF_8), nextGeneration++));
  }

  /** The object's content as UTF-8, or null when absent. */
  public synchronized String get(String bucket, String name) {
    Blob b = objects.get(bucket + "/" + name);
    return b == null ? null : new String(b.content(), StandardCharsets.UTF_8);
  }

  /** The {@code Authorization} header of the last request, or null when it had none. */
  public String lastAuthorization() {
    return lastAuthorization;
  }

  /** Successful uploads so far. */
  public synchronized int writes() {
    return writes;
  }

  /** A JSON API error body as GCS sends it. */
  public static String error(int code, String reason, String message) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode err = root.putObject("error");
    err.put("code", code);
    err.put("message", message);
    ObjectNode e = err.putArray("errors").addObject();
    e.put("message", message);
    e.put("domain", "global");
    e.put("reason", reason);
    if (code == 412) {
      e.put("locationType", "header");
      e.put("location", "If-Match");
    }
    return root.toString();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      byte[] body = ex.getRequestBody().readAllBytes();
      lastAuthorization = ex.getRequestHeaders().getFirst("Authorization");
      Map<String, String> q = query(ex.getRequestURI().getRawQuery());
      String path = ex.getRequestURI().getRawPath();
      String method = ex.getRequestMethod();
      if (method.equals("POST") && path.startsWith("/upload/storage/v1/b/")) {
        String bucket = decode(path.substring("/upload/storage/v1/b/".length()).split("/")[0]);
        upload(ex, bucket, q, body);
        return;
      }
      if (path.startsWith("/storage/v1/b/") && path.contains("/o/")) {
        String rest = path.substring("/storage/v1/b/".length());
        String bucket = decode(rest.substring(0, rest.indexOf("/o/")));
        String name = decode(rest.substring(rest.indexOf("/o/") + 3));
        switch (method) {
          case "GET" -> read(ex, bucket, name, q);
          case "DELETE" -> delete(ex, bucket, name);
          default -> send(ex, 405, error(405, "methodNotAllowed", "method not allowed"));
        }
        return;
      }
      send(ex, 404, error(404, "notFound", "Not Found"));
    }
  }

  private synchronized void upload(
      HttpExchange ex, String bucket, Map<String, String> q, byte[] body) throws IOException {
    String name = q.get("name");
    if (!buckets.contains(bucket)) {
      send(ex, 404, error(404, "notFound", "The specified bucket does not exist."));
      return;
    }
    if (!"media".equals(q.get("uploadType")) || name == null) {
      send(ex, 400, error(400, "invalid", "uploadType=media and name are required"));
      return;
    }
    Blob current = objects.get(bucket + "/" + name);
    if (!preconditionHolds(current, q)) {
      send(ex, 412, error(412, "conditionNotMet", PRECONDITION));
      return;
    }
    Blob next = new Blob(body, nextGeneration++);
    objects.put(bucket + "/" + name, next);
    writes++;
    send(ex, 200, metadata(bucket, name, next));
  }

  private static boolean preconditionHolds(Blob current, Map<String, String> q) {
    String match = q.get("ifGenerationMatch");
    if (match == null) {
      return true;
    }
    long want = Long.parseLong(match);
    return want == 0 ? current == null : current != null && current.generation() == want;
  }

  private synchronized void read(HttpExchange ex, String bucket, String name, Map<String, String> q)
      throws IOException {
    Blob b = objects.get(bucket + "/" + name);
    if (b == null) {
      send(ex, 404, error(404, "notFound", "No such object: " + bucket + "/" + name));
      return;
    }
    if (!preconditionHolds(b, q)) {
      send(ex, 412, error(412, "conditionNotMet", PRECONDITION));
      return;
    }
    if ("media".equals(q.get("alt"))) {
      ex.getResponseHeaders().set("x-goog-generation", Long.toString(b.generation()));
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(200, b.content().length == 0 ? -1 : b.content().length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(b.content());
      }
      return;
    }
    send(ex, 200, metadata(bucket, name, b));
  }

  private synchronized void delete(HttpExchange ex, String bucket, String name) throws IOException {
    if (objects.remove(bucket + "/" + name) == null) {
      send(ex, 404, error(404, "notFound", "No such object: " + bucket + "/" + name));
      return;
    }
    ex.sendResponseHeaders(204, -1);
  }

  private static String metadata(String bucket, String name, Blob b) {
    ObjectNode m = JSON.createObjectNode();
    m.put("kind", "storage#object");
    m.put("id", bucket + "/" + name + "/" + b.generation());
    m.put("name", name);
    m.put("bucket", bucket);
    m.put("generation", Long.toString(b.generation()));
    m.put("metageneration", "1");
    m.put("contentType", "application/json");
    m.put("size", Integer.toString(b.content().length));
    return m.toString();
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new HashMap<>();
    if (raw == null) {
      return q;
    }
    for (String pair : raw.split("&")) {
      int i = pair.indexOf('=');
      q.put(
          decode(i < 0 ? pair : pair.substring(0, i)), i < 0 ? "" : decode(pair.substring(i + 1)));
    }
    return q;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  private static void send(HttpExchange ex, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
