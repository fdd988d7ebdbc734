package io.sf2loki.core.model;

/** The two pipeline lanes (SPEC PIPE-2). */
public enum Lane {
  /** Pub/Sub sources. */
  STREAMING,
  /** All polling sources: eventlog_objects, eventlogfile, apexlog. */
  BULK;

  /** The lane name as used in metric attributes and logs ({@code streaming}, {@code bulk}). */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
