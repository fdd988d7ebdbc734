package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.StateConfig;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StateStoresTest {
  private static StateConfig config(
      StateConfig.Store store, Optional<String> s3Endpoint, Optional<String> gcsEndpoint) {
    return new StateConfig(
        store,
        new StateConfig.File(Path.of("/var/lib/sf2loki/state.json")),
        new StateConfig.S3("b", "sf2loki/state.json", Optional.of("eu-west-1"), s3Endpoint),
        new StateConfig.Gcs("g", "sf2loki/state.json", Optional.empty(), gcsEndpoint, true),
        Duration.ofSeconds(1));
  }

  @Test
  @DisplayName("STATE-8, STATE-14: state.s3 maps to the store with a 30 s request bound")
  void state14_s3Settings() {
    S3StoreSettings s =
        StateStores.s3(
            config(StateConfig.Store.S3, Optional.of("http://minio:9000"), Optional.empty()).s3());
    assertThat(s.endpointUrl()).contains(URI.create("http://minio:9000"));
    assertThat(s.region()).contains("eu-west-1");
    assertThat(s.attemptTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.describe()).isEqualTo("s3://b/sf2loki/state.json");
  }

  @Test
  @DisplayName("STATE-15: state.gcs.endpoint_url defaults to the public JSON API root")
  void state15_gcsSettings() {
    StateConfig c = config(StateConfig.Store.GCS, Optional.empty(), Optional.empty());
    GcsStoreSettings g = StateStores.gcs(c.gcs());
    assertThat(g.endpoint()).isEqualTo(URI.create("https://storage.googleapis.com"));
    assertThat(g.anonymous()).isTrue();
    assertThat(g.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(StateStores.describe(c)).isEqualTo("gs://g/sf2loki/state.json");
  }

  @Test
  @DisplayName("CLI-4, STATE-15: an endpoint_url that is not an http(s) URL is refused by key")
  void state15_badEndpointRefused() {
    assertThatThrownBy(
            () ->
                StateStores.check(
                    config(StateConfig.Store.S3, Optional.of("minio:9000"), Optional.empty())))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("state.s3.endpoint_url");
    assertThatThrownBy(
            () ->
                StateStores.check(
                    config(StateConfig.Store.GCS, Optional.empty(), Optional.of("not a url"))))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("state.gcs.endpoint_url");
    StateStores.check(config(StateConfig.Store.FILE, Optional.of("bad"), Optional.of("bad")));
  }
}
