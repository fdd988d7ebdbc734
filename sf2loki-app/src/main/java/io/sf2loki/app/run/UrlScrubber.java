package io.sf2loki.app.run;

import java.net.URI;
import java.net.URISyntaxException;

/** Scrubs URLs for logs (SPEC OBS-11): user-info replaced by {@code ***}, query string removed. */
final class UrlScrubber {
  private UrlScrubber() {}

  static String scrub(String url) {
    try {
      URI u = new URI(url);
      String userInfo = u.getRawUserInfo() == null ? null : "***";
      return new URI(u.getScheme(), userInfo, u.getHost(), u.getPort(), u.getPath(), null, null)
          .toString();
    } catch (URISyntaxException | RuntimeException e) {
      int q = url.indexOf('?');
      String noQuery = q < 0 ? url : url.substring(0, q);
      int at = noQuery.indexOf('@');
      int scheme = noQuery.indexOf("://");
      return at > scheme && scheme >= 0
          ? noQuery.substring(0, scheme + 3) + "***" + noQuery.substring(at)
          : noQuery;
    }
  }
}
