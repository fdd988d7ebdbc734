package io.sf2loki.sim.http;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A JDK HTTP server bound to the loopback address with a bounded pool of virtual handler threads:
 * the transport shared by the simulated org and the Loki receiver. Owns its server and threads;
 * {@link #close()} stops both (in-flight exchanges are cut).
 */
public final class LoopbackServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;

  /**
   * Binds and starts.
   *
   * @param port port on 127.0.0.1; 0 = ephemeral
   * @param handlerThreads maximum concurrent exchanges, ≥ 1
   * @param threadPrefix name prefix of the handler threads
   * @param contexts path prefix → handler
   * @throws IOException when the port cannot be bound
   */
  public LoopbackServer(
      int port, int handlerThreads, String threadPrefix, Map<String, HttpHandler> contexts)
      throws IOException {
    this.server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    this.executor =
        Executors.newFixedThreadPool(
            handlerThreads, Thread.ofVirtual().name(threadPrefix, 0).factory());
    server.setExecutor(executor);
    contexts.forEach(server::createContext);
    server.start();
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops the server and its handler threads (waits up to 5 s for them). */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Validates a builder's handler-thread count. */
  public static int requireHandlerThreads(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("handlerThreads must be >= 1");
    }
    return n;
  }
}
