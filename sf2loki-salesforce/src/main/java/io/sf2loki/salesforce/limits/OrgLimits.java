package io.sf2loki.salesforce.limits;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The org's limits as read from the REST Limits resource (SPEC OBS-12): {@code GET
 * /services/data/v{api}/limits} answers one top-level object per limit, e.g. {@code
 * "DailyApiRequests": {"Max": 15000, "Remaining": 14953}}; some carry nested per-app sub-limits
 * (e.g. {@code DailyBulkApiBatches."Dataloader Bulk"}), which are ignored. Only entries whose
 * {@code Max} and {@code Remaining} are integer-coercible (JSON integers, integral numbers, decimal
 * strings) are kept.
 *
 * @param limits limit name → values, in the answer's order
 */
public record OrgLimits(Map<String, Limit> limits) {
  /** The limit the API reserve reads (OBS-21). */
  public static final String DAILY_API_REQUESTS = "DailyApiRequests";

  /**
   * One limit.
   *
   * @param max {@code Max}, in the limit's units
   * @param remaining {@code Remaining}, in the limit's units
   */
  public record Limit(long max, long remaining) {}

  public OrgLimits {
    limits = Collections.unmodifiableMap(new LinkedHashMap<>(limits));
  }

  /**
   * Reads a parsed Limits body.
   *
   * @param body the top-level JSON object
   * @throws LimitsResponseException when no entry has integer {@code Max} and {@code Remaining}
   */
  public static OrgLimits parse(Map<String, Object> body) throws LimitsResponseException {
    Map<String, Limit> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : body.entrySet()) {
      if (e.getValue() instanceof Map<?, ?> entry) {
        Optional<Long> max = integer(entry.get("Max"));
        Optional<Long> remaining = integer(entry.get("Remaining"));
        if (max.isPresent() && remaining.isPresent()) {
          out.put(e.getKey(), new Limit(max.get(), remaining.get()));
        }
      }
    }
    if (out.isEmpty()) {
      throw new LimitsResponseException(
          "limits response has no entry with integer Max and Remaining ("
              + body.size()
              + " top-level keys)");
    }
    return new OrgLimits(out);
  }

  /** {@code DailyApiRequests}, when present. */
  public Optional<Limit> dailyApiRequests() {
    return Optional.ofNullable(limits.get(DAILY_API_REQUESTS));
  }

  private static Optional<Long> integer(Object v) {
    try {
      return switch (v) {
        case Integer i -> Optional.of(i.longValue());
        case Long l -> Optional.of(l);
        case Short s -> Optional.of(s.longValue());
        case BigInteger b -> Optional.of(b.longValueExact());
        case BigDecimal d -> Optional.of(d.toBigIntegerExact().longValueExact());
        case Double d -> integral(d);
        case Float f -> integral(f.doubleValue());
        case String s -> Optional.of(Long.parseLong(s.trim()));
        case null, default -> Optional.empty();
      };
    } catch (ArithmeticException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Optional<Long> integral(double d) {
    if (Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 0x1p53) {
      return Optional.of((long) d);
    }
    return Optional.empty();
  }
}
