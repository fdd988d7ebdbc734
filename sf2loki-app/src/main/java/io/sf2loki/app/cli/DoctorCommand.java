package io.sf2loki.app.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code doctor [--json] [--org NAME | --all-orgs]} (SPEC CLI-10, DOC-1, DOC-6, CFG-25, FEAT-9) →
 * {@link CommandActions}; {@code --org} and {@code --all-orgs} together are a usage error (exit 2).
 */
@Command(
    name = "doctor",
    description =
        "Check configuration, Salesforce, Pub/Sub, Loki, telemetry, state and coordinator against"
            + " the real endpoints (DOC-1…DOC-3).",
    footer = "%nExit status: 0 no check failed, 1 a check failed, 2 configuration error.")
final class DoctorCommand implements Callable<Integer> {
  private final Cli cli;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Option(names = "--org", paramLabel = "NAME", description = "The org to check (default: first).")
  String org;

  @Option(
      names = "--all-orgs",
      description =
          "Check every org (rows prefixed <org>/) and the deployment-wide rows once (FEAT-9).")
  boolean allOrgs;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  DoctorCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    cli.rejectRootCheck(spec);
    if (org != null && allOrgs) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--org and --all-orgs are mutually exclusive");
    }
    return cli.actions().doctor(cli.globalConfig(), json, Optional.ofNullable(org), allOrgs);
  }
}
