package io.sf2loki.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sf2loki.loki.encode.SnappyCodec;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import logproto.EntryAdapter;
import logproto.PushRequest;
import logproto.StreamAdapter;

/**
 * A Loki-push-compatible receiver that accepts and discards (harness (b) and (f)); run in its own
 * JVM so its cost is not in the shipper's process. {@code POST /loki/api/v1/push} → 204. With
 * {@code --latency} it decodes each snappy protobuf body and records, per entry, receive time −
 * entry timestamp (the latency source stamps entries with their emission time); {@code GET /stats}
 * returns {@code entries=<n> bytes=<n> p50_ms=<x> p99_ms=<x>}. Prints {@code PORT <port>} on stdout
 * once listening.
 */
public final class DiscardReceiver {
  private final boolean latency;
  private final AtomicLong entries = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final SnappyCodec snappy = new SnappyCodec();
  private long[] latNanos = new long[1 << 16];
  private int latCount;

  private DiscardReceiver(boolean latency) {
    this.latency = latency;
  }

  public static void main(String[] args) throws IOException {
    boolean latency = Arrays.asList(args).contains("--latency");
    DiscardReceiver r = new DiscardReceiver(latency);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/loki/api/v1/push", r::push);
    server.createContext("/stats", r::stats);
    server.start();
    System.out.println("PORT " + server.getAddress().getPort());
    System.out.flush();
  }

  private void push(HttpExchange ex) throws IOException {
    java.time.Instant t = java.time.Instant.now();
    long now = t.getEpochSecond() * 1_000_000_000L + t.getNano();
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readAllBytes();
    }
    bytes.addAndGet(body.length);
    if (latency) {
      PushRequest req = PushRequest.parseFrom(snappy.uncompress(body));
      synchronized (this) {
        for (StreamAdapter s : req.getStreamsList()) {
          for (EntryAdapter e : s.getEntriesList()) {
            long ts = e.getTimestamp().getSeconds() * 1_000_000_000L + e.getTimestamp().getNanos();
            if (latCount == latNanos.length) {
              latNanos = Arrays.copyOf(latNanos, latCount * 2);
            }
            latNanos[latCount++] = now - ts;
            entries.incrementAndGet();
          }
        }
      }
    }
    ex.sendResponseHeaders(204, -1);
    ex.close();
  }

  private void stats(HttpExchange ex) throws IOException {
    String text;
    synchronized (this) {
      long[] sorted = Arrays.copyOf(latNanos, latCount);
      Arrays.sort(sorted);
      text =
          String.format(
              Locale.ROOT,
              "entries=%d bytes=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f",
              entries.get(),
              bytes.get(),
              pct(sorted, 0.50),
              pct(sorted, 0.99),
              sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6);
    }
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(200, b.length);
    ex.getResponseBody().write(b);
    ex.close();
  }

  private static double pct(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
    return sorted[Math.max(0, i)] / 1e6;
  }
}
