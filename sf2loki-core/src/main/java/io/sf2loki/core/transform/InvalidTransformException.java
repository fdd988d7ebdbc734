package io.sf2loki.core.transform;

/**
 * A transform rule that cannot run (SPEC CFG-19): the message starts with the rule's 0-based index
 * in its source's list in the dotted notation of CFG-4, e.g. {@code "transforms.2: at 4:
 * look-around (?= is not portable"}; {@link #detail()} is the text after it.
 */
public final class InvalidTransformException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int index;
  private final String detail;

  /**
   * @param index the rule's 0-based index in its source's list
   * @param what the problem
   */
  public InvalidTransformException(int index, String what) {
    super("transforms." + index + ": " + what);
    this.index = index;
    this.detail = what;
  }

  /** The problem without the rule's path. */
  public String detail() {
    return detail;
  }

  /** The rule's 0-based index. */
  public int index() {
    return index;
  }
}
