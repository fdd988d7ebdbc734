package io.sf2loki.app.config;

/**
 * One Salesforce org connection (SPEC CFG-11, CFG-12, ORG).
 *
 * @param name {@code ""} in legacy single-org mode, else the {@code orgs[].name} (pattern {@code
 *     ^[A-Za-z0-9_-]+$})
 * @param salesforce connection and auth settings
 * @param sources this org's sources
 */
public record OrgConfig(String name, SalesforceConfig salesforce, SourcesConfig sources) {
  /** True in legacy single-org mode (no {@code org} label, unprefixed checkpoint keys). */
  public boolean legacy() {
    return name.isEmpty();
  }

  /** The checkpoint key prefix of ORG-4: {@code ""} in legacy mode, else {@code org=<name>:}. */
  public String keyPrefix() {
    return legacy() ? "" : "org=" + name + ":";
  }
}
