package io.sf2loki.core.status;

/**
 * A source that reports how its polls end (SPEC FEAT-3, OBS-35). The host sets the reporter once,
 * after building the source and before it runs; until then the source reports to {@link
 * PollReporter#NONE}.
 */
public interface ReportsPolls {
  /**
   * Sets where poll results go.
   *
   * @param reporter the recorder, e.g. the daemon's {@link SourceStatusBoard}
   * @return this
   */
  ReportsPolls reportTo(PollReporter reporter);
}
