package io.sf2loki.core.org;

import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.spi.CheckpointStore;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One org's checkpoint document under {@code coordinate.per_org} (SPEC STATE-19, STATE-20): every
 * write goes to the org's own document (fenced by the org lease's epoch, STATE-7); a read the org
 * document cannot answer falls back to the deployment document, which is only read — so the keys an
 * org stored before sharding was turned on (STATE-18), and ORG-5's legacy keys, still resume it.
 * {@code egress:budget} never falls back: the deployment document's count is the whole deployment's
 * (STATE-20).
 *
 * <p>Thread-safe as its delegates: each store serialises its own operations (STATE-1).
 */
public final class OrgDocumentStore implements CheckpointStore {
  private final CheckpointStore own;
  private final CheckpointStore deployment;

  /**
   * @param own the org's document (closed by {@link #close()})
   * @param deployment the deployment's document, only read (its owner closes it)
   */
  public OrgDocumentStore(CheckpointStore own, CheckpointStore deployment) {
    this.own = Objects.requireNonNull(own, "own");
    this.deployment = Objects.requireNonNull(deployment, "deployment");
  }

  /** The org's own document (its lease binds to it, HA-7). */
  public CheckpointStore own() {
    return own;
  }

  /**
   * The org document's value, else the deployment document's (never for {@code egress:budget}).
   *
   * @throws io.sf2loki.core.spi.StateException when either document cannot be read
   */
  @Override
  public Optional<String> load(String key) {
    Optional<String> v = own.load(key);
    if (v.isPresent() || EgressGovernor.BUDGET_KEY.equals(key)) {
      return v;
    }
    return deployment.load(key);
  }

  @Override
  public void commitMany(Map<String, String> values, Set<String> keysToRemove) {
    own.commitMany(values, keysToRemove);
  }

  @Override
  public void delete(String key) {
    own.delete(key);
  }

  /** The org document's keys only (what this org's terms wrote). */
  @Override
  public Map<String, String> snapshot() {
    return own.snapshot();
  }

  /**
   * The org document's cache: the next term reads it fresh (STATE-2). The deployment document is
   * only read under {@code per_org}, so its cache stays valid (one read per process, not per term).
   */
  @Override
  public void reset() {
    own.reset();
  }

  @Override
  public void close() {
    own.close();
  }
}
