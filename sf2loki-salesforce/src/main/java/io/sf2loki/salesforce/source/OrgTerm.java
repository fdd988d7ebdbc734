package io.sf2loki.salesforce.source;

import io.sf2loki.core.status.PollReporter;
import java.util.Objects;

/**
 * What a {@link SourceFactory} gets for one leadership term of one org (SPEC PIPE-20, ORG-2): the
 * host's services, the org's clients, the term's SRC-24 registry and the FEAT-3 reporter. A
 * multi-org host builds one per org and term, with the org's own clients and a key-prefixing cursor
 * view (ORG-4) in {@link #context()}.
 *
 * @param context time, CPU pool, metrics, read-only cursors and the org's API gate
 * @param org the org's process-lifetime Salesforce clients
 * @param ownership the org's ownership registry for this term (SRC-24)
 * @param reporter where the sources report each poll (FEAT-3, OBS-35)
 */
public record OrgTerm(
    SourceContext context, SalesforceOrg org, SourceOwnership ownership, PollReporter reporter) {
  public OrgTerm {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(ownership, "ownership");
    Objects.requireNonNull(reporter, "reporter");
  }
}
