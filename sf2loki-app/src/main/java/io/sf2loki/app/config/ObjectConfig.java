package io.sf2loki.app.config;

import java.time.Duration;

/**
 * {@code sources.eventlog_objects.objects[]} (SPEC §1.3, OBJ).
 *
 * @param name SOQL identifier
 * @param timestampField SOQL identifier, default {@code EventDate}
 * @param pollInterval default 5 minutes, strictly positive
 * @param lookback first-run window, default 1 hour
 * @param settleWindow default 1 minute (OBJ-6)
 * @param sample rate in (0, 1], default 1.0
 * @param bigObject DESC drain (OBJ-5), default false
 * @param maxCatchupRecords ≥ 0, 0 = unbounded, default 20000
 * @param maxCatchupBytes bytes ≥ 0, 0 = unbounded, default 67108864
 * @param tiebreakField SOQL identifier, default {@code EventIdentifier} (OBJ-7)
 * @param revisit {@code revisit_window}, {@code revisit_interval}, {@code revisit_max_keys}
 *     (OBJ-13…OBJ-17)
 */
public record ObjectConfig(
    String name,
    String timestampField,
    Duration pollInterval,
    Duration lookback,
    Duration settleWindow,
    double sample,
    boolean bigObject,
    long maxCatchupRecords,
    long maxCatchupBytes,
    String tiebreakField,
    RevisitConfig revisit) {}
