package io.sf2loki.core.settings;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The one definition of a configuration key (SPEC §1.3): its YAML key, type, default, bounds,
 * description and SPEC requirement. The configuration loader binds and validates with it, and the
 * {@code config example|reference|schema} generators render it (SPEC CFG-26, CLI-6); nothing else
 * restates a default or a bound.
 *
 * @param key the YAML key inside its object, e.g. {@code poll_interval}; a {@link Type#SECRET} also
 *     accepts {@code <key>_file}
 * @param type the value shape
 * @param defaultValue the default as the bound Java value ({@link Duration}, {@link Long}, {@link
 *     Double}, {@link Boolean}, {@link String}, {@link List}); null = absent (or required)
 * @param defaultText how the reference shows the default when it is computed (e.g. CFG-18); null =
 *     derived from {@code defaultValue}
 * @param required the key must be set
 * @param min the least allowed value (numbers, integers, durations in seconds); null = none
 * @param minExclusive {@code min} itself is not allowed
 * @param max the greatest allowed value; null = none
 * @param choices the allowed YAML spellings of an {@link Type#ENUM}; empty otherwise
 * @param description one sentence for the reference and the example
 * @param spec the SPEC requirement IDs that give the key its meaning (may be empty)
 * @param example a value shown in the example and the reference; null = the default
 */
public record Setting(
    String key,
    Type type,
    Object defaultValue,
    String defaultText,
    boolean required,
    Double min,
    boolean minExclusive,
    Double max,
    List<String> choices,
    String description,
    String spec,
    String example) {

  /** Value shapes of SPEC §1.3 ("Types"). */
  public enum Type {
    STRING,
    BOOLEAN,
    INTEGER,
    NUMBER,
    /** SPEC CFG-5. */
    DURATION,
    /** SPEC CFG-7: inline value plus {@code <key>_file}. */
    SECRET,
    PATH,
    ENUM,
    STRING_LIST,
    /** String → string mapping. */
    STRING_MAP,
    /** Glob → sampling rate in (0, 1]. */
    RATE_MAP
  }

  public Setting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    choices = List.copyOf(choices);
    description = description == null ? "" : description;
    spec = spec == null ? "" : spec;
  }

  private static Setting of(String key, Type type, Object dflt, String description, String spec) {
    return new Setting(
        key, type, dflt, null, false, null, false, null, List.of(), description, spec, null);
  }

  /** A string key. */
  public static Setting string(String key, String dflt, String description, String spec) {
    return of(key, Type.STRING, dflt, description, spec);
  }

  /** A filesystem path key. */
  public static Setting path(String key, String dflt, String description, String spec) {
    return of(key, Type.PATH, dflt, description, spec);
  }

  /** A boolean key (CFG-2 spellings). */
  public static Setting bool(String key, boolean dflt, String description, String spec) {
    return of(key, Type.BOOLEAN, dflt, description, spec);
  }

  /** An integer key. */
  public static Setting integer(String key, long dflt, String description, String spec) {
    return of(key, Type.INTEGER, dflt, description, spec);
  }

  /** A decimal number key. */
  public static Setting number(String key, double dflt, String description, String spec) {
    return of(key, Type.NUMBER, dflt, description, spec);
  }

  /** A duration key (CFG-5); never negative (CFG-6). */
  public static Setting duration(String key, Duration dflt, String description, String spec) {
    return of(key, Type.DURATION, dflt, description, spec).atLeast(0);
  }

  /** A secret key with its {@code _file} twin (CFG-7). */
  public static Setting secret(String key, String description, String spec) {
    return of(key, Type.SECRET, null, description, spec);
  }

  /** An enumerated key; {@code dflt} is one of {@code choices}. */
  public static Setting choice(
      String key, String dflt, List<String> choices, String description, String spec) {
    return new Setting(
        key, Type.ENUM, dflt, null, false, null, false, null, choices, description, spec, null);
  }

  /** A list of strings. */
  public static Setting list(String key, List<String> dflt, String description, String spec) {
    return of(key, Type.STRING_LIST, dflt == null ? null : List.copyOf(dflt), description, spec);
  }

  /** A string → string mapping, default empty. */
  public static Setting map(String key, String description, String spec) {
    return of(key, Type.STRING_MAP, java.util.Map.of(), description, spec);
  }

  /** A glob → sampling-rate mapping, default empty. */
  public static Setting rateMap(String key, String description, String spec) {
    return of(key, Type.RATE_MAP, java.util.Map.of(), description, spec);
  }

  /** This key with a least value ({@code min} allowed). */
  public Setting atLeast(double least) {
    return new Setting(
        key,
        type,
        defaultValue,
        defaultText,
        required,
        least,
        false,
        max,
        choices,
        description,
        spec,
        example);
  }

  /** This key with a least value that is itself not allowed (e.g. "greater than zero"). */
  public Setting greaterThan(double least) {
    return new Setting(
        key,
        type,
        defaultValue,
        defaultText,
        required,
        least,
        true,
        max,
        choices,
        description,
        spec,
        example);
  }

  /** This key with a greatest allowed value. */
  public Setting atMost(double most) {
    return new Setting(
        key,
        type,
        defaultValue,
        defaultText,
        required,
        min,
        minExclusive,
        most,
        choices,
        description,
        spec,
        example);
  }

  /** This key as a mandatory one (no default). */
  public Setting mandatory() {
    return new Setting(
        key,
        type,
        null,
        defaultText,
        true,
        min,
        minExclusive,
        max,
        choices,
        description,
        spec,
        example);
  }

  /** This key with a value for the example and the reference's "Example" column. */
  public Setting example(String value) {
    return new Setting(
        key,
        type,
        defaultValue,
        defaultText,
        required,
        min,
        minExclusive,
        max,
        choices,
        description,
        spec,
        value);
  }

  /** This key with a computed default described in words (e.g. "5m when Hourly, else 0s"). */
  public Setting defaultText(String text) {
    return new Setting(
        key,
        type,
        defaultValue,
        text,
        required,
        min,
        minExclusive,
        max,
        choices,
        description,
        spec,
        example);
  }

  /** The default as a duration; fails when the key is not a duration with a default. */
  public Duration durationDefault() {
    return (Duration) defaultValue;
  }

  /** The default as a long. */
  public long longDefault() {
    return ((Number) defaultValue).longValue();
  }

  /** The default as a double. */
  public double doubleDefault() {
    return ((Number) defaultValue).doubleValue();
  }

  /** The default as a boolean. */
  public boolean boolDefault() {
    return (Boolean) defaultValue;
  }

  /** The default as a string (null when absent). */
  public String stringDefault() {
    return (String) defaultValue;
  }

  /** The default as a string list. */
  @SuppressWarnings("unchecked")
  public List<String> listDefault() {
    return (List<String>) defaultValue;
  }

  /** True when a strictly positive value is required (e.g. "must be greater than zero"). */
  public boolean positive() {
    return min != null && min == 0 && minExclusive;
  }
}
