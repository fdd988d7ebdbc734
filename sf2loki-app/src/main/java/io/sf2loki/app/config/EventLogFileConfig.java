package io.sf2loki.app.config;

import java.time.Duration;
import java.util.List;

/**
 * {@code sources.eventlogfile} (SPEC §1.3, ELF).
 *
 * @param enabled default false; true requires non-empty {@code eventTypes} (CFG-17)
 * @param interval default HOURLY
 * @param eventTypes configured types; a name {@code "*"} means discovery
 * @param exclude exact type names skipped by discovery
 * @param pollInterval default 1 hour, strictly positive
 * @param lookback default 24 hours
 * @param timestampColumn default {@code TIMESTAMP_DERIVED}
 * @param pageSize 1…50000, default 1000
 * @param settleWindow effective value (CFG-18): explicit, else 5 minutes for Hourly, 0 for Daily
 * @param downloadMaxAge default 24 hours; 0 = abandon a failing file at once
 * @param transforms rules (XF)
 * @param concurrency ≥ 1, default 4
 */
public record EventLogFileConfig(
    boolean enabled,
    Interval interval,
    List<EventTypeConfig> eventTypes,
    List<String> exclude,
    Duration pollInterval,
    Duration lookback,
    String timestampColumn,
    int pageSize,
    Duration settleWindow,
    Duration downloadMaxAge,
    List<TransformRule> transforms,
    int concurrency) {

  /** {@code eventlogfile.interval}. */
  public enum Interval implements YamlEnum {
    HOURLY("Hourly"),
    DAILY("Daily");

    private final String yaml;

    Interval(String yaml) {
      this.yaml = yaml;
    }

    @Override
    public String yaml() {
      return yaml;
    }
  }
}
