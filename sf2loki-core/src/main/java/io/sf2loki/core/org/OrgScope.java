package io.sf2loki.core.org;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One org of a multi-org deployment as the org wrapper sees it (SPEC ORG-3…ORG-5, CFG-10): its name
 * (label {@code org} and checkpoint key prefix {@code org=<name>:}), its environment (label {@code
 * environment}) and whether it is the first configured org (the only one with the ORG-5 legacy-key
 * fallback). Immutable.
 *
 * @param name the {@code orgs[].name}, matching {@code ^[A-Za-z0-9_-]+$} (CFG-10)
 * @param environment {@code production} or {@code sandbox}
 * @param first true for {@code orgs[0]} (ORG-5)
 */
public record OrgScope(String name, String environment, boolean first) {
  /** CFG-10: org names; no {@code :} so the key prefix is unambiguous. */
  public static final Pattern NAME = Pattern.compile("^[A-Za-z0-9_-]+$");

  /** The prefix marker of ORG-4 keys. */
  public static final String PREFIX = "org=";

  public OrgScope {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(environment, "environment");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("org name must match " + NAME.pattern() + ": " + name);
    }
  }

  /** {@code org=<name>:} (ORG-4). */
  public String keyPrefix() {
    return PREFIX + name + ":";
  }

  /** {@code key} with this org's prefix (ORG-4). */
  public String prefixed(String key) {
    return keyPrefix() + key;
  }

  /**
   * The identity labels of ORG-3 for this org.
   *
   * @param sfOrgId the configured or resolved 15/18-character org id
   * @return {@code org}, {@code environment} and {@code sf_org_id} (unmodifiable)
   */
  public Map<String, String> labels(String sfOrgId) {
    Objects.requireNonNull(sfOrgId, "sfOrgId");
    return Map.of("org", name, "environment", environment, "sf_org_id", sfOrgId);
  }

  /**
   * Splits a stored key into its org and unprefixed key (PIPE-10: the prefix is stripped and
   * exported as attribute {@code org}).
   *
   * @param key any checkpoint key
   * @return the org name (empty for an unprefixed key, e.g. {@code egress:budget}) and the rest
   */
  public static Split split(String key) {
    if (key.startsWith(PREFIX)) {
      int colon = key.indexOf(':', PREFIX.length());
      if (colon > PREFIX.length()) {
        String org = key.substring(PREFIX.length(), colon);
        if (NAME.matcher(org).matches()) {
          return new Split(Optional.of(org), key.substring(colon + 1));
        }
      }
    }
    return new Split(Optional.empty(), key);
  }

  /**
   * A stored key split by {@link #split}.
   *
   * @param org the org name of a prefixed key
   * @param key the key without the prefix
   */
  public record Split(Optional<String> org, String key) {}
}
