package io.sf2loki.app.cli;

import io.sf2loki.app.config.ConfigExample;
import io.sf2loki.app.config.ConfigReference;
import io.sf2loki.app.config.ConfigSchema;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code config example|reference|schema} (SPEC CLI-6, CFG-26): prints a document generated from
 * the configuration model; needs no configuration, exit 0. ({@code helm-values} is not built yet.)
 */
@Command(
    name = "config",
    description =
        "Print a document generated from the configuration model: example (annotated YAML),"
            + " reference (Markdown) or schema (JSON Schema 2020-12) (CLI-6).")
final class ConfigCommand implements Callable<Integer> {
  private final Cli cli;

  @Parameters(index = "0", paramLabel = "WHAT", description = "example, reference or schema.")
  String what;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  ConfigCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    cli.rejectRootCheck(spec);
    String text =
        switch (what) {
          case "example" -> ConfigExample.render();
          case "reference" -> ConfigReference.render();
          case "schema" -> ConfigSchema.render();
          default ->
              throw new CommandLine.ParameterException(
                  spec.commandLine(),
                  "unknown document '" + what + "' (example, reference or schema)");
        };
    spec.commandLine().getOut().print(text);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
