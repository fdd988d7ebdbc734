package io.sf2loki.app.cli;

import io.sf2loki.app.config.ConfigExample;
import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.ConfigReference;
import io.sf2loki.app.config.ConfigSchema;
import io.sf2loki.app.config.HelmValues;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code config example|reference|schema|helm-values} (SPEC CLI-6, CFG-26): prints a document
 * generated from the configuration model; needs no configuration, exit 0. {@code helm-values} with
 * {@code --config FILE} prints Helm values that deploy that file with the chart (CLI-18, {@link
 * HelmValues}), its notes also on stderr; a file that cannot be read, fails validation or cannot
 * run on the chart prints {@code sf2loki: <error>} and exits 2 (CLI-19).
 */
@Command(
    name = "config",
    description =
        "Print a document generated from the configuration model: example (annotated YAML),"
            + " reference (Markdown), schema (JSON Schema 2020-12) or helm-values (the chart's"
            + " config region; with --config, Helm values deploying that file) (CLI-6).")
final class ConfigCommand implements Callable<Integer> {
  private final Cli cli;

  @Parameters(
      index = "0",
      paramLabel = "WHAT",
      description = "example, reference, schema or helm-values.")
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
          case "helm-values" -> helmValues();
          default ->
              throw new CommandLine.ParameterException(
                  spec.commandLine(),
                  "unknown document '" + what + "' (example, reference, schema or helm-values)");
        };
    if (text == null) {
      return Cli.EXIT_USAGE;
    }
    spec.commandLine().getOut().print(text);
    spec.commandLine().getOut().flush();
    return 0;
  }

  /** The chart region, or values for {@code --config}; null after printing a config error. */
  private String helmValues() {
    if (cli.globalConfig() == null) {
      return HelmValues.region();
    }
    PrintWriter err = spec.commandLine().getErr();
    try {
      HelmValues.Result r = HelmValues.render(cli.globalConfig());
      for (String n : r.notes()) {
        err.println("sf2loki: note: " + n);
      }
      if (!r.secrets().isEmpty()) {
        err.println(
            "sf2loki: create the Secret keys "
                + String.join(", ", r.secrets().stream().map(k -> k.key()).toList())
                + " (see the comments at the top of the values)");
      }
      err.flush();
      return r.yaml();
    } catch (ConfigException e) {
      err.println("sf2loki: " + e.getMessage());
      err.flush();
      return null;
    }
  }
}
