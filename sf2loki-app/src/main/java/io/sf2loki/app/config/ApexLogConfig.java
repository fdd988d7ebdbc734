package io.sf2loki.app.config;

import java.time.Duration;
import java.util.List;

/**
 * {@code sources.apexlog} (SPEC §1.3, APX).
 *
 * @param enabled default false
 * @param pollInterval default 1 minute, strictly positive
 * @param lookback default 1 hour
 * @param users exact usernames; empty = all logs
 * @param maxBodyBytes bytes &gt; 0, default 5242880
 * @param sample rate in (0, 1], default 1.0
 * @param transforms rules applied to metadata only
 * @param revisit {@code revisit_window}, {@code revisit_interval}, {@code revisit_max_keys}
 *     (APX-10)
 */
public record ApexLogConfig(
    boolean enabled,
    Duration pollInterval,
    Duration lookback,
    List<String> users,
    long maxBodyBytes,
    double sample,
    List<TransformRule> transforms,
    RevisitConfig revisit) {}
