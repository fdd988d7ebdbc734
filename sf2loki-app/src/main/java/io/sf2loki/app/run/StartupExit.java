package io.sf2loki.app.run;

/**
 * A startup step of the daemon ended the run (SPEC CLI-3 exit table): the step already printed and
 * logged why; the daemon closes what was built and returns {@link #status()}. Carries no stack
 * trace.
 */
final class StartupExit extends Exception {
  private final int status;

  /**
   * @param status the process exit status (0 stopped during startup, 1 crash, 2 configuration)
   */
  StartupExit(int status) {
    super(null, null, false, false);
    this.status = status;
  }

  int status() {
    return status;
  }
}
