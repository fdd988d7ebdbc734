package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class UrlScrubberTest {
  @Test
  @DisplayName("OBS-11: user-info becomes *** and the query string is removed")
  void obs11_scrubsUserInfoAndQuery() {
    assertThat(
            UrlScrubber.scrub(
                "https://tenant:s3cr3t-token@loki.example.com:3100/loki/api/v1/push?api_key=abc"))
        .isEqualTo("https://***@loki.example.com:3100/loki/api/v1/push");
    assertThat(UrlScrubber.scrub("http://user@localhost/loki/api/v1/push"))
        .isEqualTo("http://***@localhost/loki/api/v1/push");
    assertThat(UrlScrubber.scrub("http://127.0.0.1:3100/loki/api/v1/push?x=1&y=2"))
        .isEqualTo("http://127.0.0.1:3100/loki/api/v1/push");
    assertThat(UrlScrubber.scrub("http://127.0.0.1:3100/loki/api/v1/push"))
        .isEqualTo("http://127.0.0.1:3100/loki/api/v1/push");
  }

  @Test
  @DisplayName("OBS-11: a URL that does not parse is still scrubbed")
  void obs11_unparseableUrlStillScrubbed() {
    String scrubbed = UrlScrubber.scrub("http://us er:p%ss w0rd@host name/push?token=t0ps3cret");
    assertThat(scrubbed).doesNotContain("p%ss").doesNotContain("t0ps3cret").contains("***@");
  }
}
