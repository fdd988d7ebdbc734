package io.sf2loki.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Build-time generator (SPEC CLI-16) of the release tarball's {@code man/man1/sf2loki.1} (roff,
 * {@code man(7)} macros) and {@code completion/sf2loki.bash}, both rendered from the live picocli
 * model of {@link Cli}, so they cannot drift from the parser. Run by {@code exec-maven-plugin} in
 * {@code prepare-package}: {@code ManPage <output dir>}.
 */
public final class ManPage {
  private ManPage() {}

  public static void main(String[] args) throws IOException {
    Path outDir = Path.of(args[0]);
    CommandLine root = new Cli(new NoActions()).commandLine();
    Files.createDirectories(outDir.resolve("man/man1"));
    Files.createDirectories(outDir.resolve("completion"));
    Files.writeString(
        outDir.resolve("man/man1/sf2loki.1"), render(root, Version.get()), StandardCharsets.UTF_8);
    Files.writeString(
        outDir.resolve("completion/sf2loki.bash"),
        CompletionCommand.script(root),
        StandardCharsets.UTF_8);
  }

  /** The man page of {@code root} and every subcommand, in roff. */
  static String render(CommandLine root, String version) {
    StringWriter s = new StringWriter();
    PrintWriter w = new PrintWriter(s);
    w.println(".TH SF2LOKI 1 \"\" \"sf2loki " + esc(version) + "\" \"User Commands\"");
    w.println(".SH NAME");
    w.println(
        "sf2loki \\- " + esc(String.join(" ", root.getCommandSpec().usageMessage().description())));
    w.println(".SH SYNOPSIS");
    w.println(".B sf2loki");
    w.println("[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR [\\fISUBCOMMAND\\fR]] [\\fIOPTIONS\\fR]");
    w.println(".SH OPTIONS");
    options(w, root.getCommandSpec());
    w.println(".SH COMMANDS");
    for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
      command(w, "sf2loki " + e.getKey(), e.getValue());
    }
    w.println(".SH EXIT STATUS");
    w.println(
        "0 success; 1 a failure at run time (doctor: a check failed); 2 a configuration"
            + " error.");
    w.println(".SH SEE ALSO");
    w.println("The README shipped in the release tarball.");
    w.flush();
    return s.toString();
  }

  private static void command(PrintWriter w, String name, CommandLine cl) {
    CommandSpec spec = cl.getCommandSpec();
    w.println(".SS " + esc(name));
    w.println(esc(String.join(" ", spec.usageMessage().description())));
    if (!spec.positionalParameters().isEmpty()) {
      w.println(".PP");
      w.println(
          "Arguments: "
              + esc(
                  String.join(
                      " ",
                      spec.positionalParameters().stream().map(p -> p.paramLabel()).toList())));
    }
    options(w, spec);
    for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
      command(w, name + " " + e.getKey(), e.getValue());
    }
  }

  private static void options(PrintWriter w, CommandSpec spec) {
    for (OptionSpec o : spec.options()) {
      if (o.hidden() || (o.inherited() && spec.parent() != null)) {
        continue;
      }
      w.println(".TP");
      String label = o.typeInfo().isBoolean() ? "" : " \\fI" + esc(o.paramLabel()) + "\\fR";
      w.println("\\fB" + esc(String.join(", ", o.names())) + "\\fR" + label);
      w.println(
          esc(
              String.join(" ", o.description())
                  .replace("${DEFAULT-VALUE}", Optional.ofNullable(o.defaultValue()).orElse(""))));
    }
  }

  /** Escapes roff: backslashes, and a leading dot or quote. */
  static String esc(String s) {
    String t = s.replace("\\", "\\e").replace("-", "\\-");
    return t.startsWith(".") || t.startsWith("'") ? "\\&" + t : t;
  }

  /** Actions of a model-only CLI (never executed). */
  private static final class NoActions implements CommandActions {
    @Override
    public int run(Path configOrNull, boolean checkOnly) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int demo(DemoOptions options) {
      throw new UnsupportedOperationException();
    }
  }
}
