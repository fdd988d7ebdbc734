package io.sf2loki.app.cli;

import io.sf2loki.app.statecmd.StateCommands;
import io.sf2loki.app.statecmd.StateCommands.WriteFlags;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code state show|set|delete|export|import} (SPEC CLI-7, CLI-8, CLI-9, FEAT-8): parses the
 * arguments and hands a {@link StateCommands} call to {@link CommandActions#state}.
 */
@Command(
    name = "state",
    description = "Show, edit, export or import the checkpoint document (CLI-7…CLI-9, FEAT-8).",
    subcommands = {
      StateCommand.Show.class,
      StateCommand.Set.class,
      StateCommand.Delete.class,
      StateCommand.Export.class,
      StateCommand.Import.class
    })
final class StateCommand implements Callable<Integer> {
  private final Cli cli;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  StateCommand(Cli cli) {
    this.cli = cli;
  }

  /** Builds the command with factories that hand {@code cli} to each subcommand. */
  static CommandLine create(Cli cli) {
    return new CommandLine(
        new StateCommand(cli),
        new CommandLine.IFactory() {
          @Override
          public <K> K create(Class<K> cls) throws Exception {
            if (Sub.class.isAssignableFrom(cls)) {
              K k = CommandLine.defaultFactory().create(cls);
              ((Sub) k).cli = cli;
              return k;
            }
            return CommandLine.defaultFactory().create(cls);
          }
        });
  }

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "state needs a subcommand: show, set, delete, export or import");
  }

  /** The options every writing subcommand takes (CLI-9). */
  static class WriteOptions {
    @Option(
        names = "--force",
        description = "Write even while a daemon may own the store (skips the lock/lease checks).")
    boolean force;

    @Option(
        names = "--i-stopped-the-daemon",
        description =
            "Confirm no daemon runs (needed for an object store under coordinate.type=noop).")
    boolean stopped;

    WriteFlags flags() {
      return new WriteFlags(force, stopped);
    }
  }

  @Command
  abstract static class Sub implements Callable<Integer> {
    Cli cli;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    int run(ToIntFunction<StateCommands> op) {
      cli.rejectRootCheck(spec);
      return cli.actions().state(cli.globalConfig(), op);
    }
  }

  @Command(name = "show", description = "Print key<TAB>value lines sorted by key (CLI-7).")
  static final class Show extends Sub {
    @Option(
        names = "--key",
        paramLabel = "GLOB",
        defaultValue = "*",
        description = "Only keys matching this glob. Default: ${DEFAULT-VALUE}.")
    String glob;

    @Option(names = "--force", description = "Accepted for symmetry; show never locks.")
    boolean force;

    @Override
    public Integer call() {
      return run(c -> c.show(glob));
    }
  }

  @Command(
      name = "set",
      description = "Commit one key; the value must not be empty (CLI-8, CLI-22).")
  static final class Set extends Sub {
    @Parameters(index = "0", paramLabel = "KEY")
    String key;

    @Parameters(index = "1", paramLabel = "VALUE")
    String value;

    @CommandLine.Mixin WriteOptions write = new WriteOptions();

    @Override
    public Integer call() {
      if (value.isBlank()) { // CLI-22: an empty checkpoint reads as "no checkpoint" nowhere
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            "a checkpoint value cannot be empty; to make the source restart from its"
                + " preset/lookback use 'sf2loki state delete "
                + key
                + "'");
      }
      return run(c -> c.set(key, value, write.flags()));
    }
  }

  @Command(name = "delete", description = "Remove one key; a missing key is a no-op (CLI-8).")
  static final class Delete extends Sub {
    @Parameters(index = "0", paramLabel = "KEY")
    String key;

    @CommandLine.Mixin WriteOptions write = new WriteOptions();

    @Override
    public Integer call() {
      return run(c -> c.delete(key, write.flags()));
    }
  }

  @Command(name = "export", description = "Write the whole document as JSON (FEAT-8).")
  static final class Export extends Sub {
    @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE, not stdout.")
    Path out;

    @Override
    public Integer call() {
      return run(c -> c.export(Optional.ofNullable(out)));
    }
  }

  @Command(
      name = "import",
      description = "Write a JSON document into the configured store in one write (FEAT-8).")
  static final class Import extends Sub {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @CommandLine.ArgGroup(exclusive = true)
    Mode mode;

    @CommandLine.Mixin WriteOptions write = new WriteOptions();

    static final class Mode {
      @Option(names = "--merge", description = "Keep keys absent from FILE (the default).")
      boolean merge;

      @Option(names = "--replace", description = "Remove keys absent from FILE.")
      boolean replace;
    }

    @Override
    public Integer call() {
      boolean replace = mode != null && mode.replace;
      return run(c -> c.importFrom(file, replace, write.flags()));
    }
  }
}
