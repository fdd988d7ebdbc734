package io.sf2loki.app.config;

import io.sf2loki.loki.LokiSinkSettings;
import java.util.Objects;
import java.util.Optional;

/**
 * One Salesforce org connection (SPEC CFG-11, CFG-12, ORG).
 *
 * @param name {@code ""} in legacy single-org mode, else the {@code orgs[].name} (pattern {@code
 *     ^[A-Za-z0-9_-]+$})
 * @param salesforce connection and auth settings
 * @param sources this org's sources
 * @param loki this org's Loki identity override ({@code orgs[].loki}, FEAT-6, CFG-42); {@link
 *     LokiIdentity#INHERIT} in legacy mode and when absent
 */
public record OrgConfig(
    String name, SalesforceConfig salesforce, SourcesConfig sources, LokiIdentity loki) {
  public OrgConfig {
    Objects.requireNonNull(loki, "loki");
  }

  /** An org without a Loki identity override. */
  public OrgConfig(String name, SalesforceConfig salesforce, SourcesConfig sources) {
    this(name, salesforce, sources, LokiIdentity.INHERIT);
  }

  /**
   * {@code orgs[].loki} (FEAT-6, CFG-42): the tenant and token this org's entries are pushed with;
   * an absent value inherits {@code sink.loki}'s.
   *
   * @param tenantId {@code tenant_id} ({@code X-Scope-OrgID}), absent when unset or empty
   * @param authToken {@code auth_token} (CFG-7 secret), absent when unset
   */
  public record LokiIdentity(Optional<String> tenantId, Optional<Secret> authToken) {
    /** No override. */
    public static final LokiIdentity INHERIT = new LokiIdentity(Optional.empty(), Optional.empty());

    public LokiIdentity {
      Objects.requireNonNull(tenantId, "tenantId");
      Objects.requireNonNull(authToken, "authToken");
    }

    /** True when neither key is set. */
    public boolean inherits() {
      return tenantId.isEmpty() && authToken.isEmpty();
    }

    /**
     * The sink settings this org pushes with (FEAT-6): {@code base} with this org's tenant and
     * token where set.
     *
     * @param base the deployment's {@code sink.loki} settings
     */
    public LokiSinkSettings applyTo(LokiSinkSettings base) {
      if (inherits()) {
        return base;
      }
      return base.withAuth(
          tenantId.orElse(base.tenantId()), authToken.map(Secret::reveal).orElse(base.authToken()));
    }
  }

  /** True in legacy single-org mode (no {@code org} label, unprefixed checkpoint keys). */
  public boolean legacy() {
    return name.isEmpty();
  }

  /** The checkpoint key prefix of ORG-4: {@code ""} in legacy mode, else {@code org=<name>:}. */
  public String keyPrefix() {
    return legacy() ? "" : "org=" + name + ":";
  }
}
