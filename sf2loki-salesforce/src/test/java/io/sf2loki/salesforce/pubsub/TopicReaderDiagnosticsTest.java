package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TopicReaderDiagnosticsTest {
  @Test
  @DisplayName(
      "PS-1, PS-15: a failed stream is logged on one line with its root cause and a hint for"
          + " the usual endpoint mistakes (TLS against plaintext, unknown host, refused)")
  void ps1_transportDiagnostics() {
    assertThat(TransportDiagnostics.firstLine("io exception\nChannel Pipeline: [SslHandler#0]"))
        .isEqualTo("io exception");
    assertThat(TransportDiagnostics.firstLine(null)).isEmpty();
    Exception refused =
        new RuntimeException("io exception", new ConnectException("Connection refused"));
    assertThat(TransportDiagnostics.rootCause(refused))
        .isEqualTo("ConnectException: Connection refused");
    assertThat(TransportDiagnostics.rootCause(null)).isEmpty();
    assertThat(TransportDiagnostics.transportHint(refused, "io exception"))
        .contains("nothing accepts");
    assertThat(
            TransportDiagnostics.transportHint(
                new RuntimeException(new SSLHandshakeException("not an SSL/TLS record")), ""))
        .contains("sources.pubsub.tls: false");
    assertThat(
            TransportDiagnostics.transportHint(
                null, "io exception\nChannel Pipeline: [SslHandler#0, ClientTlsHandler#0]"))
        .contains("sources.pubsub.tls: false");
    assertThat(TransportDiagnostics.transportHint(new UnknownHostException("x"), null))
        .contains("does not resolve");
    assertThat(TransportDiagnostics.transportHint(new IllegalStateException("other"), "other"))
        .isEmpty();
  }
}
