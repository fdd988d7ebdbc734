package io.sf2loki.app.cli;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * PLACEHOLDER until the application wiring exists: every action prints {@code not wired yet} to
 * stderr and returns 2. The lead replaces this class (or {@link Main#createActions()}) with the
 * real daemon / demo wiring.
 */
public final class DefaultCommandActions implements CommandActions {
  private final PrintStream err;

  public DefaultCommandActions() {
    this(System.err);
  }

  public DefaultCommandActions(PrintStream err) {
    this.err = err;
  }

  @Override
  public int run(Path configOrNull, boolean checkOnly) {
    err.println("sf2loki: run: not wired yet");
    return 2;
  }

  @Override
  public int demo(DemoOptions options) {
    err.println("sf2loki: demo: not wired yet");
    return 2;
  }
}
