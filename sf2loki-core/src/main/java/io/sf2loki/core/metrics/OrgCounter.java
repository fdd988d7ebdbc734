package io.sf2loki.core.metrics;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.context.Context;

/** A per-org counter view (SPEC OBS-4): adds {@code org=<name>} to every recording. */
final class OrgCounter implements LongCounter {
  private final LongCounter delegate;
  private final String org;
  private final Attributes orgOnly;

  OrgCounter(LongCounter delegate, String org) {
    this.delegate = delegate;
    this.org = org;
    this.orgOnly = Attributes.of(Sf2lokiMetrics.ORG, org);
  }

  @Override
  public boolean isEnabled() {
    return delegate.isEnabled();
  }

  @Override
  public void add(long value) {
    delegate.add(value, orgOnly);
  }

  @Override
  public void add(long value, Attributes attributes) {
    delegate.add(value, with(attributes));
  }

  @Override
  public void add(long value, Attributes attributes, Context context) {
    delegate.add(value, with(attributes), context);
  }

  private Attributes with(Attributes attributes) {
    return attributes.isEmpty()
        ? orgOnly
        : attributes.toBuilder().put(Sf2lokiMetrics.ORG, org).build();
  }
}
