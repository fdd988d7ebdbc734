package io.sf2loki.salesforce.pubsub;

/**
 * The PS-3 credit accounting of one Subscribe call: {@code n} requested first, a top-up of {@code n
 * − pending} when {@code pending ≤ ⌊n/2⌋}. {@code pending} is the server's {@code
 * pending_num_requested} plus a top-up the server has not accounted for yet (a response whose
 * pending did not grow beyond {@code previous − events} was sent before the server saw it; a
 * keepalive or a grown pending acknowledges it), so at most {@code n} events are ever requested. A
 * top-up that is due while the bridge has no byte room is deferred (PS-18). One per call; touched
 * by the reader thread only.
 */
final class Credits {
  private final int n;
  private long serverPending;
  private long inFlight;
  private boolean deferred;

  /**
   * @param n {@code num_requested}; the first request asks for all of it
   */
  Credits(int n) {
    this.n = n;
    this.serverPending = n;
  }

  /** The first request's {@code num_requested}. */
  int initial() {
    return n;
  }

  /** Accounts one response: the server's {@code pending_num_requested} and its event count. */
  void onResponse(long reported, int events) {
    if (events == 0 || reported > serverPending - events) {
      inFlight = 0; // the server has accounted for our last top-up
    }
    serverPending = reported;
  }

  /** Whether a top-up is due ({@code pending ≤ ⌊n/2⌋}). */
  boolean due() {
    return serverPending + inFlight <= n / 2;
  }

  /** The top-up to send now, or 0 when none is due. */
  int topUp() {
    long pending = serverPending + inFlight;
    return pending > n / 2 ? 0 : (int) (n - pending);
  }

  /** A top-up of {@code k} was written. */
  void sent(int k) {
    inFlight += k;
  }

  /** Whether a due top-up waits for bridge byte room (PS-18). */
  boolean deferred() {
    return deferred;
  }

  void defer(boolean d) {
    deferred = d;
  }
}
