package io.sf2loki.app.health;

import io.sf2loki.core.time.Ticker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health server's connection handling (SPEC OBS-7). One platform thread multiplexes every
 * connection with a selector, so an idle or slow client costs a socket, never a thread: request
 * heads are read without blocking, a complete head is answered by a worker (which never touches the
 * socket), and the answer is written without blocking.
 *
 * <p>Bounds, all per listener (nothing JVM-wide): a connection that has not sent a complete head
 * within {@code headTimeout} of its accept is closed ({@link Drop#HEAD_TIMEOUT}); an answer not
 * written within {@code writeTimeout} is abandoned ({@link Drop#WRITE_TIMEOUT}); at most {@code
 * maxConnections} connections are open — a new one evicts the longest-waiting connection that has
 * not completed its head ({@link Drop#EVICTED}), so a probe is served while slow clients hold every
 * slot, and is itself refused ({@link Drop#OVER_LIMIT}) only when every slot is an answer in
 * flight. A head longer than {@code maxHeadBytes} is answered as malformed.
 *
 * <p>Threads: the listener owns its selector thread ({@code sf2loki-health-io}); {@link #close}
 * stops and joins it. All connection state is confined to that thread; workers hand answers back
 * through a queue.
 */
final class HealthListener implements AutoCloseable {
  /** Why a connection was closed before it was answered. */
  enum Drop {
    /** No complete request head within the head timeout. */
    HEAD_TIMEOUT,
    /** Closed to make room for a new connection while its head was still incomplete. */
    EVICTED,
    /** Refused at accept: every slot holds an answer in flight. */
    OVER_LIMIT,
    /** The answer could not be written within the write timeout. */
    WRITE_TIMEOUT
  }

  /**
   * Connection bounds.
   *
   * @param headTimeout how long after accept a complete request head may take (OBS-7: 5 s)
   * @param writeTimeout how long writing an answer may take
   * @param lingerTimeout how long, after the answer, the request's unread rest is drained
   * @param maxConnections most connections open at once (≥ 1)
   * @param maxHeadBytes longest accepted request head in bytes
   */
  record Limits(
      Duration headTimeout,
      Duration writeTimeout,
      Duration lingerTimeout,
      int maxConnections,
      int maxHeadBytes) {
    Limits {
      if (maxConnections < 1 || maxHeadBytes < 16) {
        throw new IllegalArgumentException("maxConnections >= 1 and maxHeadBytes >= 16");
      }
      for (Duration d : new Duration[] {headTimeout, writeTimeout, lingerTimeout}) {
        if (d.isNegative() || d.isZero()) {
          throw new IllegalArgumentException("timeouts must be > 0: " + d);
        }
      }
    }
  }

  private enum State {
    HEAD,
    WORKING,
    WRITING,
    DRAINING
  }

  private static final Logger log = LoggerFactory.getLogger(HealthListener.class);

  private final Limits limits;
  private final Executor workers;
  private final Function<RequestHead, byte[]> responder;
  private final Consumer<Drop> onDrop;
  private final Ticker ticker;
  private final ServerSocketChannel server;
  private final Selector selector;
  private final Thread thread;
  private final ConcurrentLinkedQueue<Conn> answered = new ConcurrentLinkedQueue<>();
  private final ByteBuffer drainBuf = ByteBuffer.allocate(4096);
  // selector thread only
  private final Set<Conn> open = new HashSet<>();
  private final LinkedHashSet<Conn> evictable = new LinkedHashSet<>(); // HEAD/DRAINING, by age
  private volatile boolean closing;

  /**
   * Binds {@code address} and starts the selector thread.
   *
   * @param responder turns a head (null = malformed or too long) into the complete response bytes;
   *     runs on {@code workers}
   * @param onDrop told of every drop, on the selector thread
   * @param ticker monotonic real time (deadlines also bound the selector's waits)
   * @throws IOException if the address cannot be bound
   */
  HealthListener(
      InetSocketAddress address,
      int backlog,
      Limits limits,
      Executor workers,
      Function<RequestHead, byte[]> responder,
      Consumer<Drop> onDrop,
      Ticker ticker)
      throws IOException {
    this.limits = limits;
    this.workers = workers;
    this.responder = responder;
    this.onDrop = onDrop;
    this.ticker = ticker;
    this.selector = Selector.open();
    try {
      this.server = ServerSocketChannel.open();
      server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      server.bind(address, backlog);
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT, null);
    } catch (IOException | RuntimeException e) {
      selector.close();
      throw e;
    }
    this.thread = Thread.ofPlatform().name("sf2loki-health-io").daemon(true).unstarted(this::loop);
    thread.start();
  }

  /** The bound address (with the actual port when port 0 was requested). */
  InetSocketAddress address() throws IOException {
    return (InetSocketAddress) server.getLocalAddress();
  }

  /** Stops accepting, closes every connection, and joins the selector thread (up to 2 s). */
  @Override
  public void close() {
    closing = true;
    selector.wakeup();
    try {
      thread.join(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeQuietly(server);
    try {
      selector.close();
    } catch (IOException e) {
      // nothing left to release
    }
  }

  private void loop() {
    try {
      while (!closing) {
        selector.select(this::ready, nextWaitMillis());
        Conn c;
        while ((c = answered.poll()) != null) {
          startWrite(c);
        }
        expire();
      }
    } catch (IOException | RuntimeException e) { // incl. ClosedSelectorException at close
      if (!closing) {
        log.atError().setCause(e).log("health server stopped serving");
      }
    } finally {
      for (Conn c : new ArrayList<>(open)) {
        close(c);
      }
      closeQuietly(server);
    }
  }

  private void ready(SelectionKey key) {
    if (key.attachment() == null) {
      acceptAll();
      return;
    }
    Conn c = (Conn) key.attachment();
    try {
      if (key.isValid() && key.isReadable()) {
        read(c);
      } else if (key.isValid() && key.isWritable()) {
        write(c);
      }
    } catch (IOException e) {
      close(c); // reset by the peer, or similar: nothing to answer
    }
  }

  private void acceptAll() {
    while (true) {
      SocketChannel ch;
      try {
        ch = server.accept();
      } catch (IOException e) {
        log.atWarn().addKeyValue("error", e.toString()).log("health server accept failed");
        return;
      }
      if (ch == null) {
        return;
      }
      admit(ch);
    }
  }

  private void admit(SocketChannel ch) {
    if (open.size() >= limits.maxConnections()) {
      Conn victim = evictable.isEmpty() ? null : evictable.iterator().next();
      if (victim == null) {
        onDrop.accept(Drop.OVER_LIMIT);
        closeQuietly(ch);
        return;
      }
      if (victim.state == State.HEAD) {
        onDrop.accept(Drop.EVICTED);
      }
      close(victim);
    }
    try {
      ch.configureBlocking(false);
      Conn c = new Conn(ch, limits.maxHeadBytes());
      c.deadline = ticker.nanoTime() + limits.headTimeout().toNanos();
      c.key = ch.register(selector, SelectionKey.OP_READ, c);
      open.add(c);
      evictable.add(c);
    } catch (IOException e) {
      closeQuietly(ch);
    }
  }

  private void read(Conn c) throws IOException {
    if (c.state == State.DRAINING) {
      drainBuf.clear();
      if (c.ch.read(drainBuf) < 0) {
        close(c);
      }
      return;
    }
    int n = c.ch.read(ByteBuffer.wrap(c.head, c.len, c.head.length - c.len));
    if (n < 0) {
      close(c); // the client gave up before sending a complete head
      return;
    }
    int from = c.len - 3;
    c.len += n;
    int end = RequestHead.endOf(c.head, from, c.len);
    if (end < 0 && c.len < c.head.length) {
      return;
    }
    RequestHead head = end < 0 ? null : RequestHead.parse(c.head, end);
    c.head = null;
    c.state = State.WORKING;
    evictable.remove(c);
    c.key.interestOps(0);
    try {
      workers.execute(() -> answer(c, head));
    } catch (RejectedExecutionException e) {
      close(c); // shutting down
    }
  }

  /** Worker side: computes the answer and hands it to the selector thread. */
  private void answer(Conn c, RequestHead head) {
    byte[] bytes;
    try {
      bytes = responder.apply(head);
    } catch (RuntimeException e) {
      log.atWarn().addKeyValue("error", e.toString()).log("health request failed");
      bytes = null;
    }
    c.out = bytes == null ? null : ByteBuffer.wrap(bytes);
    answered.add(c);
    selector.wakeup();
  }

  private void startWrite(Conn c) {
    if (!open.contains(c)) {
      return;
    }
    if (c.out == null) {
      close(c);
      return;
    }
    c.state = State.WRITING;
    c.deadline = ticker.nanoTime() + limits.writeTimeout().toNanos();
    try {
      write(c);
    } catch (IOException e) {
      close(c);
    }
  }

  private void write(Conn c) throws IOException {
    c.ch.write(c.out);
    if (c.out.hasRemaining()) {
      c.key.interestOps(SelectionKey.OP_WRITE);
      return;
    }
    c.out = null;
    // half-close, then read the request's unread rest: closing with unread input would reset the
    // connection and could discard the answer before the client read it
    c.ch.shutdownOutput();
    c.state = State.DRAINING;
    c.deadline = ticker.nanoTime() + limits.lingerTimeout().toNanos();
    c.key.interestOps(SelectionKey.OP_READ);
    evictable.add(c);
  }

  private void expire() {
    long now = ticker.nanoTime();
    for (Conn c : new ArrayList<>(open)) {
      if (c.state == State.WORKING || now - c.deadline < 0) {
        continue;
      }
      if (c.state == State.HEAD) {
        onDrop.accept(Drop.HEAD_TIMEOUT);
      } else if (c.state == State.WRITING) {
        onDrop.accept(Drop.WRITE_TIMEOUT);
      }
      close(c);
    }
  }

  /** Milliseconds until the nearest deadline (at least 1), or 0 (no deadline: wait for I/O). */
  private long nextWaitMillis() {
    long now = ticker.nanoTime();
    long nearest = Long.MAX_VALUE;
    for (Conn c : open) {
      if (c.state != State.WORKING) {
        nearest = Math.min(nearest, Math.max(0, c.deadline - now));
      }
    }
    return nearest == Long.MAX_VALUE ? 0 : Math.max(1, (nearest + 999_999) / 1_000_000);
  }

  private void close(Conn c) {
    open.remove(c);
    evictable.remove(c);
    if (c.key != null) {
      c.key.cancel();
    }
    closeQuietly(c.ch);
  }

  private static void closeQuietly(java.nio.channels.Channel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // already broken; nothing to release
    }
  }

  /** One connection; fields are confined to the selector thread except {@code out} (handoff). */
  private static final class Conn {
    final SocketChannel ch;
    SelectionKey key;
    State state = State.HEAD;
    byte[] head;
    int len;
    long deadline;
    volatile ByteBuffer out;

    Conn(SocketChannel ch, int maxHeadBytes) {
      this.ch = ch;
      this.head = new byte[maxHeadBytes];
    }
  }
}
