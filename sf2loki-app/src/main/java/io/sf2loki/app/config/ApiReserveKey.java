package io.sf2loki.app.config;

/**
 * Binds {@code salesforce.limits.reserve_percent} (SPEC OBS-21): a number in [0, 100], default 0.
 */
final class ApiReserveKey {
  static final String KEY = SalesforceKeys.RESERVE_PERCENT.key();

  private ApiReserveKey() {}

  static double bind(Section limits) {
    double p = limits.number(SalesforceKeys.RESERVE_PERCENT);
    if (!(p >= 0 && p <= 100)) {
      limits.problem(KEY, "must be between 0 and 100 (percent of DailyApiRequests), got " + p);
      return 0;
    }
    if (p > 0 && !limits.bool(SalesforceKeys.LIMITS_ENABLED)) {
      limits.problem(KEY, "needs limits.enabled: true (the reserve is read from the limits poll)");
    }
    return p;
  }
}
