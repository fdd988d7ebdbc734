package io.sf2loki.core.transform;

/**
 * A {@code regex_replace} pattern or replacement outside the portable grammar of SPEC XF-5 / XF-12,
 * or one that 1.x itself would refuse (CFG-19). The message names the position — a 0-based offset
 * in code points, and says so — and what was found there, e.g. {@code "at code point 3 (0-based):
 * look-around is not portable"}.
 */
public final class PortableRegexException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int position;

  /**
   * @param position 0-based code-point offset into the pattern or replacement
   * @param what what is wrong there
   */
  public PortableRegexException(int position, String what) {
    super("at code point " + position + " (0-based): " + what);
    this.position = position;
  }

  /** The 0-based code-point offset the problem was found at. */
  public int position() {
    return position;
  }
}
