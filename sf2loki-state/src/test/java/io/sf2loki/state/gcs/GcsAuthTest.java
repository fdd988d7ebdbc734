package io.sf2loki.state.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.object.ObjectCheckpointStore;
import io.sf2loki.state.object.StoreRetry;
import io.sf2loki.state.testing.FakeGcsServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * STATE-11 credentials: a {@code service_file} (service-account key) is exchanged for an OAuth
 * token at its {@code token_uri} by google-auth-library, and every JSON API request carries it.
 */
class GcsAuthTest {
  @TempDir Path dir;

  @Test
  void state11_aServiceFileTokenIsSentAsBearerOnEveryRequest() throws Exception {
    AtomicInteger tokenCalls = new AtomicInteger();
    AtomicReference<String> grant = new AtomicReference<>();
    HttpServer token =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    token.createContext(
        "/token",
        ex -> {
          tokenCalls.incrementAndGet();
          grant.set(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          byte[] body =
              "{\"access_token\":\"ya29.sf2loki-test\",\"expires_in\":3600,\"token_type\":\"Bearer\"}"
                  .getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().set("Content-Type", "application/json");
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    token.start();
    try (FakeGcsServer gcs = FakeGcsServer.start()) {
      gcs.createBucket("ckpt");
      Path key = serviceFile("http://127.0.0.1:" + token.getAddress().getPort() + "/token");
      GcsStoreSettings settings =
          new GcsStoreSettings(
              "ckpt",
              "sf2loki/state.json",
              Optional.of(key),
              gcs.endpoint(),
              false,
              Duration.ofSeconds(10));
      StoreRetry retry = StoreRetry.standard((d, s) -> true, new StopSignal());
      try (ObjectCheckpointStore store =
          new ObjectCheckpointStore(new GcsBackend(settings, GcsAuth.of(settings)), retry)) {
        store.commitMany(Map.of("k", "v"), Set.of());
        assertThat(gcs.lastAuthorization()).isEqualTo("Bearer ya29.sf2loki-test");
        assertThat(store.load("k")).contains("v");
      }
      assertThat(gcs.get("ckpt", "sf2loki/state.json")).isEqualTo("{\"k\":\"v\"}");
      assertThat(tokenCalls).hasValue(1); // cached for its lifetime
      assertThat(grant.get())
          .contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer");
    } finally {
      token.stop(0);
    }
  }

  @Test
  void state11_anUnreadableServiceFileIsANamedError() throws Exception {
    Path bad = Files.writeString(dir.resolve("sa.json"), "{\"type\":\"service_account\"}");
    GcsStoreSettings settings =
        new GcsStoreSettings(
            "ckpt",
            "o",
            Optional.of(bad),
            java.net.URI.create("http://127.0.0.1:1"),
            false,
            Duration.ofSeconds(1));
    assertThatThrownBy(() -> GcsAuth.of(settings))
        .isInstanceOf(StateException.class)
        .hasMessageContaining("state.gcs.service_file " + bad);
  }

  private Path serviceFile(String tokenUri) throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    String pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(g.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    Map<String, String> sa = new LinkedHashMap<>();
    sa.put("type", "service_account");
    sa.put("project_id", "sf2loki-test");
    sa.put("private_key_id", "k1");
    sa.put("private_key", pem);
    sa.put("client_email", "sf2loki@sf2loki-test.iam.gserviceaccount.com");
    sa.put("client_id", "1234567890");
    sa.put("token_uri", tokenUri);
    Path p = dir.resolve("service-account.json");
    Files.writeString(p, new ObjectMapper().writeValueAsString(sa));
    return p;
  }
}
