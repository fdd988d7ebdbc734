package io.sf2loki.salesforce.source;

import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.spi.Source;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Builds the sources of one kind for one org (SPEC PIPE-20): one factory per source kind, living in
 * that source's package beside its settings and implementation (Vector's component layout). The
 * host builds the factory once per org and process, from the kind's settings and switch; it may
 * hold process-lifetime parts (Pub/Sub's channel and schema cache), released by {@link #close()}.
 * Each term calls {@link #create} once and gets fresh instances: nothing built for one term is
 * reused by another.
 */
public interface SourceFactory extends AutoCloseable {
  /**
   * The kind's sources for one term of one org.
   *
   * @return fresh, never-run sources; empty when the kind is disabled or has nothing to read
   */
  List<Source> create(OrgTerm term);

  /** Told of every commit of every term (process lifetime); none by default. */
  default CommitListener commitListener() {
    return CommitListener.none();
  }

  /** The kind's readiness degradation (OBS-8), read per request; none by default. */
  default Optional<String> degradation() {
    return Optional.empty();
  }

  /** Releases the process-lifetime parts; nothing by default. Never throws. */
  @Override
  default void close() {}

  /**
   * A kind with one source per term and no process-lifetime parts.
   *
   * @param enabled whether the kind reads anything; false builds no source
   * @param build a fresh source for one term
   */
  static SourceFactory single(boolean enabled, Function<OrgTerm, Source> build) {
    Objects.requireNonNull(build, "build");
    return term -> enabled ? List.of(build.apply(term)) : List.of();
  }
}
