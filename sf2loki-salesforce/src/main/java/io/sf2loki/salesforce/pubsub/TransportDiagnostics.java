package io.sf2loki.salesforce.pubsub;

/**
 * What a failed Pub/Sub call's status says to a human (SPEC PS-1, PS-14): the first line of a
 * status description, the innermost cause, and a hint for the usual transport misconfigurations.
 * Pure functions.
 */
final class TransportDiagnostics {
  private TransportDiagnostics() {}

  /** The first line of a status description (netty appends its pipeline on further lines). */
  static String firstLine(String description) {
    if (description == null) {
      return "";
    }
    int nl = description.indexOf('\n');
    return nl < 0 ? description : description.substring(0, nl);
  }

  /** {@code SimpleName: message} of the innermost cause, or "" without one. */
  static String rootCause(Throwable t) {
    if (t == null) {
      return "";
    }
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName()
        + (root.getMessage() == null ? "" : ": " + firstLine(root.getMessage()));
  }

  /** A hint for the usual transport misconfigurations, or "" (PS-1). */
  static String transportHint(Throwable t, String description) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String n = c.getClass().getName();
      if (n.contains("Ssl") || n.startsWith("javax.net.ssl")) {
        return "TLS handshake failed: is the endpoint plaintext (sources.pubsub.tls: false) or"
            + " not a Pub/Sub API endpoint?";
      }
      if (c instanceof java.net.UnknownHostException) {
        return "the endpoint host does not resolve (sources.pubsub.endpoint)";
      }
      if (c instanceof java.net.ConnectException) {
        return "nothing accepts connections at sources.pubsub.endpoint";
      }
    }
    if (description != null && description.contains("SslHandler")) {
      return "TLS handshake failed: is the endpoint plaintext (sources.pubsub.tls: false)?";
    }
    return "";
  }
}
