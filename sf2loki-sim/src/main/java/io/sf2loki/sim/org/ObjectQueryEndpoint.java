package io.sf2loki.sim.org;

import java.util.List;
import java.util.Map;

/**
 * Routes {@code GET /services/data/v*&#47;query?q=} for every object other than {@code
 * EventLogFile} to the {@link SimObjectStore} (SPEC OBJ, FEAT-18). {@link SimOrg} pages the records
 * with {@code nextRecordsUrl} like any other result (SRC-17).
 */
final class ObjectQueryEndpoint {
  private final SimObjectStore store;

  ObjectQueryEndpoint(SimObjectStore store) {
    this.store = store;
  }

  /** Whether {@code soql} selects from an object this endpoint answers (not EventLogFile). */
  boolean handles(String soql) {
    String from = ObjectQuery.fromObject(soql);
    return from != null && !from.equalsIgnoreCase("EventLogFile");
  }

  /**
   * @throws SoqlRejection the Salesforce error to answer
   */
  List<Map<String, Object>> answer(String soql) throws SoqlRejection {
    return store.query(soql);
  }
}
