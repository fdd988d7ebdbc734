package io.sf2loki.app.cli;

/**
 * Process entry point used by the {@code sf2loki} launcher. The only place that calls {@code
 * System.exit}, with the status returned by {@link Cli#execute(String...)} (SPEC CLI-3: the exit
 * status is set by a normal thread after cleanup, never by a shutdown hook).
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    int status = new Cli(createActions()).execute(args);
    System.exit(status);
  }

  /**
   * Builds the real {@link CommandActions}. The application wiring replaces the placeholder here
   * (no ServiceLoader).
   */
  static CommandActions createActions() {
    return io.sf2loki.app.run.AppCommandActions.system();
  }
}
