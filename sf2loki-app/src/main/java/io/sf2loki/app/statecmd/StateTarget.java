package io.sf2loki.app.statecmd;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The configured checkpoint document as the {@code state} commands see it (SPEC CLI-7…CLI-9,
 * FEAT-8): the reserved {@code __fence_epoch__} is never shown and always preserved (STATE-12).
 */
interface StateTarget extends AutoCloseable {
  /**
   * The visible document, sorted by key; never takes the file lock (CLI-9).
   *
   * @throws io.sf2loki.core.spi.StateCorruptException when the document cannot be parsed
   * @throws io.sf2loki.core.spi.StateException on I/O failure
   */
  Map<String, String> show();

  /**
   * One write that replaces the visible document with {@code edit(current)}; no write when nothing
   * changes.
   *
   * @return the visible document before the edit
   * @throws StateRefusedException when the file lock is held (unless forced) or a conditional write
   *     lost a race
   */
  Map<String, String> edit(UnaryOperator<Map<String, String>> edit);

  /** Where the document lives (no secrets). */
  String describe();

  @Override
  void close();
}
