package io.sf2loki.state.gcs;

import com.google.auth.oauth2.GoogleCredentials;
import io.sf2loki.core.spi.StateException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

/**
 * Request headers carrying the GCS credentials (SPEC STATE-11): a service-account key file ({@code
 * state.gcs.service_file}) or Application Default Credentials, scoped to {@value #SCOPE}; tokens
 * are cached and refreshed by google-auth-library. {@link #anonymous()} sends none (emulators).
 */
@FunctionalInterface
public interface GcsAuth {
  /** Read/write access to objects. */
  String SCOPE = "https://www.googleapis.com/auth/devstorage.read_write";

  /**
   * Headers for one request.
   *
   * @throws IOException when a token cannot be obtained (retried as transient, STATE-9)
   */
  Map<String, List<String>> headers(URI uri) throws IOException;

  /** No credentials. */
  static GcsAuth anonymous() {
    return uri -> Map.of();
  }

  /**
   * The credentials of {@code settings}.
   *
   * @throws StateException when the key file or the ADC cannot be loaded
   */
  static GcsAuth of(GcsStoreSettings settings) {
    if (settings.anonymous()) {
      return anonymous();
    }
    GoogleCredentials credentials;
    try {
      if (settings.serviceFile().isPresent()) {
        try (InputStream in = Files.newInputStream(settings.serviceFile().get())) {
          credentials = GoogleCredentials.fromStream(in);
        }
      } else {
        credentials = GoogleCredentials.getApplicationDefault();
      }
    } catch (IOException e) {
      throw new StateException(
          "cannot load GCS credentials ("
              + settings.serviceFile().map(p -> "state.gcs.service_file " + p).orElse("ADC")
              + "): "
              + e.getMessage(),
          e);
    }
    GoogleCredentials scoped = credentials.createScoped(List.of(SCOPE));
    return scoped::getRequestMetadata;
  }
}
