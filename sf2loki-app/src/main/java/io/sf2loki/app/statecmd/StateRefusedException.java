package io.sf2loki.app.statecmd;

/**
 * A {@code state} command will not write (SPEC CLI-8, CLI-9): a running daemon may own the store,
 * the reserved key was named, or another writer raced the conditional write. Exit status 1.
 */
public final class StateRefusedException extends RuntimeException {
  /** CLI-9: a lost conditional write on an object store, verbatim. */
  public static final String RACED = "another writer raced this state object; retry the command";

  /** The advice every CLI-9 refusal ends with. */
  public static final String STOP_OR_FORCE = "stop the daemon first, or pass --force";

  public StateRefusedException(String message) {
    super(message);
  }

  public StateRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
