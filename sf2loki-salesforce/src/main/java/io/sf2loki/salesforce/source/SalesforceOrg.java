package io.sf2loki.salesforce.source;

import io.sf2loki.salesforce.auth.OrgIdResolver;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import java.util.Objects;

/**
 * One org's process-lifetime Salesforce clients as the source factories see them (SPEC PIPE-20,
 * ORG-2): every term's sources of the org share them. The application owns and closes them.
 *
 * @param rest the REST client (SOQL, Tooling, downloads, {@code getObject}, server now)
 * @param tokens the token provider (AUTH-1)
 * @param orgIds the org-id resolver (AUTH-8)
 */
public record SalesforceOrg(HttpSalesforceRest rest, TokenProvider tokens, OrgIdResolver orgIds) {
  public SalesforceOrg {
    Objects.requireNonNull(rest, "rest");
    Objects.requireNonNull(tokens, "tokens");
    Objects.requireNonNull(orgIds, "orgIds");
  }
}
