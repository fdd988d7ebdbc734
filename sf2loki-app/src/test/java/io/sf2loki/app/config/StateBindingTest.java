package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.app.run.Components;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code state.s3} / {@code state.gcs} bound straight onto the store records (issue 12). */
class StateBindingTest {
  @TempDir Path dir;

  @Test
  @DisplayName("STATE-8, STATE-14: state.s3 maps to the store with a 30 s request bound")
  void state14_s3Settings() {
    StateConfig c =
        load(
                dir,
                MINIMAL
                    + "state: {store: s3, s3: {bucket: b, region: eu-west-1,"
                    + " endpoint_url: 'http://minio:9000'}}\n")
            .state();
    S3StoreSettings s = c.s3();
    assertThat(s.endpointUrl()).contains(URI.create("http://minio:9000"));
    assertThat(s.region()).contains("eu-west-1");
    assertThat(s.attemptTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.describe()).isEqualTo("s3://b/sf2loki/state.json");
  }

  @Test
  @DisplayName("STATE-15: state.gcs.endpoint_url defaults to the public JSON API root")
  void state15_gcsSettings() {
    StateConfig c =
        load(dir, MINIMAL + "state: {store: gcs, gcs: {bucket: g, anonymous: true}}\n").state();
    GcsStoreSettings g = c.gcs();
    assertThat(g.endpoint()).isEqualTo(URI.create("https://storage.googleapis.com"));
    assertThat(g.anonymous()).isTrue();
    assertThat(g.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(Components.describe(c)).isEqualTo("gs://g/sf2loki/state.json");
  }

  @Test
  @DisplayName("CLI-4, STATE-15: an endpoint_url that is not an http(s) URL is refused by key")
  void state15_badEndpointRefused() {
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    MINIMAL + "state: {store: s3, s3: {bucket: b, endpoint_url: 'minio:9000'}}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("state.s3.endpoint_url");
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    MINIMAL + "state: {store: gcs, gcs: {bucket: g, endpoint_url: 'not a url'}}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("state.gcs.endpoint_url");
    load(
        dir, MINIMAL + "state: {store: file, s3: {endpoint_url: bad}, gcs: {endpoint_url: bad}}\n");
  }
}
