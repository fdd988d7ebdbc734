package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectLeaseConfigTest {
  @TempDir Path dir;

  @Test
  @DisplayName(
      "CFG-29: coordinate.s3_lease binds bucket/key/region/endpoint_url/ttl/renew_interval/holder_id with defaults")
  void s3Lease() {
    Sf2lokiConfig cfg =
        load(
            dir,
            MINIMAL
                + "coordinate:\n  type: s3_lease\n  s3_lease:\n    bucket: b\n"
                + "    endpoint_url: http://127.0.0.1:9000\n    ttl: 6s\n    renew_interval: 2s\n"
                + "    holder_id: vm-1\n");
    CoordinateConfig.S3Lease s = cfg.coordinate().s3Lease();
    assertThat(cfg.coordinate().type()).isEqualTo(CoordinateConfig.Type.S3_LEASE);
    assertThat(s)
        .isEqualTo(
            new CoordinateConfig.S3Lease(
                new S3StoreSettings(
                    "b",
                    "sf2loki/leader.lease",
                    Optional.empty(),
                    Optional.of(URI.create("http://127.0.0.1:9000")),
                    Duration.ofSeconds(30)),
                LeaseSettings.configured("vm-1", Duration.ofSeconds(6), Duration.ofSeconds(2))));
  }

  @Test
  @DisplayName(
      "CFG-30: coordinate.gcs_lease binds bucket/object_name/service_file/endpoint_url/anonymous and defaults ttl 30s, renew 10s")
  void gcsLease() {
    Sf2lokiConfig cfg =
        load(
            dir,
            MINIMAL
                + "coordinate:\n  type: gcs_lease\n  gcs_lease:\n    bucket: g\n"
                + "    anonymous: true\n    endpoint_url: http://127.0.0.1:4443\n");
    CoordinateConfig.GcsLease g = cfg.coordinate().gcsLease();
    assertThat(g)
        .isEqualTo(
            new CoordinateConfig.GcsLease(
                new GcsStoreSettings(
                    "g",
                    "sf2loki/leader.lease",
                    Optional.empty(),
                    URI.create("http://127.0.0.1:4443"),
                    true,
                    Duration.ofSeconds(30)),
                LeaseSettings.configured("", Duration.ofSeconds(30), Duration.ofSeconds(10))));
  }

  @Test
  @DisplayName(
      "CFG-31: the bucket is required for s3_lease / gcs_lease, and CFG-21 applies to their ttl")
  void required() {
    assertThatThrownBy(() -> load(dir, MINIMAL + "coordinate:\n  type: s3_lease\n"))
        .hasMessageContaining("coordinate.s3_lease.bucket");
    assertThatThrownBy(() -> load(dir, MINIMAL + "coordinate:\n  type: gcs_lease\n"))
        .hasMessageContaining("coordinate.gcs_lease.bucket");
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    MINIMAL
                        + "coordinate:\n  s3_lease: {ttl: 4s, renew_interval: 2s}\n"
                        + "  gcs_lease: {ttl: 4s, renew_interval: 2s}\n"))
        .hasMessageContaining("coordinate.s3_lease.renew_interval")
        .hasMessageContaining("coordinate.gcs_lease.renew_interval");
  }

  @Test
  @DisplayName("CFG-29: unknown keys under coordinate.s3_lease are rejected")
  void unknownKey() {
    assertThatThrownBy(() -> load(dir, MINIMAL + "coordinate:\n  s3_lease: {bucket: b, path: x}\n"))
        .hasMessageContaining("coordinate.s3_lease.path");
  }
}
