package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.StateConfig;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgDocumentsTest {
  @Test
  @DisplayName(
      "STATE-19: an org's document is the state document's name with .org-<org> before the"
          + " extension, in the same directory / bucket")
  void state19_orgDocumentNames() {
    assertThat(StateStores.orgName("state.json", "eu")).isEqualTo("state.org-eu.json");
    assertThat(StateStores.orgName("sf2loki/state.json", "eu"))
        .isEqualTo("sf2loki/state.org-eu.json");
    assertThat(StateStores.orgName("sf2loki.d/state", "eu")).isEqualTo("sf2loki.d/state.org-eu");
    assertThat(StateStores.orgName(".state", "eu")).isEqualTo(".state.org-eu");

    StateConfig file =
        new StateConfig(
            StateConfig.Store.FILE,
            new StateConfig.File(Path.of("/var/lib/sf2loki/state.json")),
            null,
            null,
            Duration.ZERO);
    assertThat(StateStores.orgDocument(file, "us").file().path())
        .isEqualTo(Path.of("/var/lib/sf2loki/state.org-us.json"));
    StateConfig s3 =
        new StateConfig(
            StateConfig.Store.S3,
            file.file(),
            new S3StoreSettings(
                "bucket",
                "sf2loki/state.json",
                Optional.empty(),
                Optional.empty(),
                Duration.ofSeconds(10)),
            null,
            Duration.ofSeconds(1));
    assertThat(StateStores.orgDocument(s3, "us").s3().describe())
        .isEqualTo("s3://bucket/sf2loki/state.org-us.json");
    StateConfig gcs =
        new StateConfig(
            StateConfig.Store.GCS,
            file.file(),
            null,
            new GcsStoreSettings(
                "bucket",
                "sf2loki/state.json",
                Optional.empty(),
                URI.create(GcsStoreSettings.DEFAULT_ENDPOINT),
                true,
                Duration.ofSeconds(10)),
            Duration.ofSeconds(1));
    assertThat(StateStores.orgDocument(gcs, "us").gcs().describe())
        .isEqualTo("gs://bucket/sf2loki/state.org-us.json");
  }
}
