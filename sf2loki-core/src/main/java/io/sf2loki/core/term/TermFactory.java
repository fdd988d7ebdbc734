package io.sf2loki.core.term;

import io.sf2loki.core.pipeline.Pipeline;

/**
 * Builds a fresh pipeline with fresh source instances for one leadership term (SPEC PIPE-20).
 * Nothing built for one term may be reused by another.
 */
@FunctionalInterface
public interface TermFactory {
  /**
   * @return a new pipeline that has never run
   * @throws Exception when the term's components cannot be built (ends the term, PIPE-12)
   */
  Pipeline newPipeline() throws Exception;
}
