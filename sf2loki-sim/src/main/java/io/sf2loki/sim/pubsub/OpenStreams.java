package io.sf2loki.sim.pubsub;

import io.grpc.Status;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open {@code Subscribe} streams of a {@link SimPubSub} (those that have named their topic) and
 * the operations over all of them: delivery after a publish, keepalive ticks, token checks and the
 * fault-driven drops. Thread-safe.
 */
final class OpenStreams {
  private static final Logger log = LoggerFactory.getLogger(SimPubSub.class);

  private final Set<SimSubscription> subs = ConcurrentHashMap.newKeySet();

  void add(SimSubscription s) {
    subs.add(s);
  }

  void remove(SimSubscription s) {
    subs.remove(s);
  }

  /** Open streams. */
  int count() {
    return subs.size();
  }

  /** Open streams of {@code t}. */
  int count(SimTopic t) {
    int n = 0;
    for (SimSubscription s : subs) {
      if (s.topic == t) {
        n++;
      }
    }
    return n;
  }

  /** Delivers owed events of {@code t} to its streams. */
  void deliver(SimTopic t) {
    for (SimSubscription s : subs) {
      if (s.topic == t) {
        s.drain();
      }
    }
  }

  /** Delivers owed events on every stream (after a topic is no longer silenced). */
  void drainAll() {
    for (SimSubscription s : subs) {
      s.drain();
    }
  }

  /** Ends the streams of {@code t} with {@code code} (OK = clean completion); returns how many. */
  int dropOpen(SimTopic t, Status.Code code) {
    int n = 0;
    for (SimSubscription s : subs) {
      if (s.topic == t && s.endNow(code)) {
        n++;
      }
    }
    if (n > 0) {
      log.atInfo()
          .addKeyValue("topic", t.name)
          .addKeyValue("status", code.name())
          .addKeyValue("streams", n)
          .log("sim pubsub dropped open streams");
    }
    return n;
  }

  /** Keepalives and owed deliveries at {@code now}. */
  void tick(Instant now) {
    for (SimSubscription s : subs) {
      s.tick(now);
    }
  }

  /** Ends every stream whose token is no longer valid. */
  void checkTokens() {
    for (SimSubscription s : subs) {
      s.checkToken();
    }
  }

  void clear() {
    subs.clear();
  }
}
