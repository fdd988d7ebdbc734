package io.sf2loki.app.health;

import java.net.InetSocketAddress;

/**
 * A {@code service.health_addr} value (SPEC CFG key reference, OBS-7): {@code host:port}, where an
 * empty host means all interfaces, port {@code 0} means an ephemeral port, and an IPv6 host is
 * written in brackets ({@code [::1]:8080}).
 *
 * @param host the host as written, without brackets; empty = all interfaces
 * @param port 0…65535; 0 = ephemeral
 */
public record HealthAddress(String host, int port) {
  /** The SPEC default of {@code service.health_addr}. */
  public static final String DEFAULT = ":8080";

  /** The {@code healthcheck} default when no configuration names an address (CLI-12). */
  public static final String HEALTHCHECK_DEFAULT = "127.0.0.1:8080";

  public HealthAddress {
    if (host == null) {
      throw new IllegalArgumentException("health address host must not be null");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("health address port out of range: " + port);
    }
  }

  /**
   * Parses {@code host:port}.
   *
   * @throws IllegalArgumentException if there is no {@code :port} part, the port is not a number in
   *     0…65535, or a bracketed IPv6 host is not closed
   */
  public static HealthAddress parse(String value) {
    if (value == null) {
      throw new IllegalArgumentException("health address must be host:port, got null");
    }
    String v = value.strip();
    int colon = v.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("health address must be host:port, got '" + value + "'");
    }
    String host = v.substring(0, colon);
    String portText = v.substring(colon + 1);
    if (host.startsWith("[")) {
      if (!host.endsWith("]")) {
        throw new IllegalArgumentException("health address has an unclosed '[': '" + value + "'");
      }
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException(
          "health address IPv6 host must be in brackets: '" + value + "'");
    }
    if (portText.isEmpty()
        || portText.length() > 5
        || !portText.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException("health address port is not a number: '" + value + "'");
    }
    return new HealthAddress(host, Integer.parseInt(portText));
  }

  /** The socket address to bind: the wildcard address when the host is empty. */
  public InetSocketAddress bindAddress() {
    return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
  }

  /**
   * The host a local probe connects to (CLI-12): loopback for an empty or wildcard host, else the
   * host itself (bracketed when IPv6, ready for a URL authority).
   */
  public String probeHost() {
    if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("*")) {
      return "127.0.0.1";
    }
    if (host.equals("::") || host.equals("::0")) {
      return "[::1]";
    }
    return host.contains(":") ? "[" + host + "]" : host;
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
