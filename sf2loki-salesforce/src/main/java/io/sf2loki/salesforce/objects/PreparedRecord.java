package io.sf2loki.salesforce.objects;

import java.time.Instant;
import java.util.Map;

/**
 * One object record, keyed and shaped (SPEC OBJ-5, OBJ-9, OBJ-10): everything but the entry
 * timestamp fallback and the checkpoint token.
 *
 * @param key the record key (OBJ-5)
 * @param realIdKey whether the key is a real Id (the ASC compound cursor may use it, OBJ-3)
 * @param rawTs the raw {@code timestamp_field} value, or null
 * @param instant {@code rawTs} parsed, or null
 * @param tiebreak text form of {@code tiebreak_field}, or null
 * @param keep false when a transform dropped the row or sampling left it out
 * @param sampledOut sampling left it out (SRC-14)
 * @param entryTs the entry timestamp (OBJ-10), null = fallback
 * @param line canonical JSON of the (transformed) record, null when not kept
 * @param md structured metadata, null when not kept
 * @param bytes canonical-JSON bytes of the original record (OBJ-8)
 */
record PreparedRecord(
    String key,
    boolean realIdKey,
    String rawTs,
    Instant instant,
    String tiebreak,
    boolean keep,
    boolean sampledOut,
    Instant entryTs,
    String line,
    Map<String, String> md,
    long bytes) {}
