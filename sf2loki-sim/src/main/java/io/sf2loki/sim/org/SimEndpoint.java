package io.sf2loki.sim.org;

/**
 * The endpoint kinds of {@link SimOrg}, used for call counters and the fault schedule.
 *
 * <p>{@link #key()} is the short name accepted by {@link SimOrg#callCount(String)}.
 */
public enum SimEndpoint {
  /** {@code POST /services/oauth2/token} (AUTH-3, AUTH-4). */
  TOKEN("token"),
  /** {@code GET /services/oauth2/userinfo} (AUTH-8). */
  USERINFO("userinfo"),
  /** {@code GET /services/data/v{api}/query?q=} (SRC-17, ELF-5). */
  QUERY("query"),
  /** {@code GET /services/data/v{api}/query/<locator>-<offset>} (the {@code nextRecordsUrl}). */
  QUERY_MORE("queryMore"),
  /** {@code GET /services/data/v{api}/sobjects/EventLogFile/<Id>/LogFile} (ELF-8). */
  LOGFILE("logfile"),
  /** {@code GET /services/data/v{api}/sobjects/}: describe global (PS-20 topic discovery). */
  SOBJECTS("sobjects"),
  /**
   * {@code GET /services/data/v{api}/tooling/sobjects/ApexLog/<Id>/Body} (APX-5); faulted through
   * {@link ApexLogEndpoints#failBody} / {@link ApexLogEndpoints#failBodies}.
   */
  APEXLOG_BODY("apexlogBody");

  private final String key;

  SimEndpoint(String key) {
    this.key = key;
  }

  /** Short name, e.g. {@code "token"}. */
  public String key() {
    return key;
  }

  /**
   * Looks an endpoint up by its {@link #key()} or enum name (case-insensitive).
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static SimEndpoint of(String name) {
    for (SimEndpoint e : values()) {
      if (e.key.equalsIgnoreCase(name) || e.name().equalsIgnoreCase(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown endpoint: " + name);
  }
}
