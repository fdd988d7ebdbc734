package io.sf2loki.app.statecmd;

/**
 * A file the {@code state} commands need cannot be read or written (SPEC CLI-21): the state file,
 * its directory or lock, or the {@code import}/{@code export} file. The message is the {@link
 * FileProblem} sentence; the command exits 2.
 */
final class StateFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  StateFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
