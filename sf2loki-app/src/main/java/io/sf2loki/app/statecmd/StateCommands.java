package io.sf2loki.app.statecmd;

import io.sf2loki.app.config.CoordinateConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.StateConfig;
import io.sf2loki.app.run.Components;
import io.sf2loki.app.run.StateStores;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.transform.Glob;
import io.sf2loki.state.CheckpointDocument;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The {@code state} commands (SPEC CLI-7, CLI-8, CLI-9, FEAT-8) on a loaded configuration. Exit
 * statuses: 0 done; 1 refused (CLI-9), raced, corrupt document or object-store failure; 2 a file
 * that cannot be read or written — state file, its directory or lock, import or export file — with
 * a {@link FileProblem} sentence (CLI-21). Configuration errors (exit 2) are the caller's.
 */
public final class StateCommands {
  /** CLI-21: a file the command needs cannot be used (the store cannot be opened). */
  public static final int EXIT_FILE = 2;

  private final Sf2lokiConfig cfg;
  private final PrintStream out;
  private final PrintStream err;
  private final InstantSource clock;

  /** What a writing command was told on its command line (CLI-9). */
  public record WriteFlags(boolean force, boolean daemonStopped) {}

  public StateCommands(Sf2lokiConfig cfg, PrintStream out, PrintStream err, InstantSource clock) {
    this.cfg = Objects.requireNonNull(cfg, "cfg");
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** CLI-7: {@code state show [--key GLOB]}; never locks. */
  public int show(String glob) {
    return guarded(
        () -> {
          Pattern p = globPattern(glob);
          if (cfg.coordinate().perOrg()) {
            return showPerOrg(p);
          }
          Map<String, String> doc;
          try (StateTarget t = target(false)) {
            doc = t.show();
          }
          if (doc.isEmpty() && missingStateFile()) { // CLI-23
            out.println(
                "no checkpoints have been stored yet: the state file "
                    + cfg.state().file().path()
                    + " does not exist (the daemon creates it on its first commit)");
            showBackfill(p);
            return 0;
          }
          int n = 0;
          for (Map.Entry<String, String> e : doc.entrySet()) {
            if (p.matcher(e.getKey()).matches()) {
              out.println(e.getKey() + "\t" + e.getValue());
              n++;
            }
          }
          if (n == 0) {
            out.println("(no checkpoints match)");
          } else {
            out.println();
            out.println(
                n + " checkpoint(s)" + (glob.equals("*") ? "" : " matching '" + glob + "'"));
          }
          showBackfill(p);
          return 0;
        });
  }

  private boolean missingStateFile() {
    return cfg.state().store() == StateConfig.Store.FILE
        && Files.notExists(cfg.state().file().path());
  }

  /**
   * BF-2: the cursors of {@code sf2loki backfill} live in their own document; {@code show} lists
   * the matching ones after the daemon's, when that document exists. Read-only: set, delete and
   * export act on the daemon's document only.
   */
  private void showBackfill(Pattern p) {
    StateConfig doc = io.sf2loki.app.backfill.Backfill.cursorDocument(cfg.state());
    if (doc.store() == StateConfig.Store.FILE && !Files.isRegularFile(doc.file().path())) {
      return;
    }
    Map<String, String> cursors;
    try (StateTarget t =
        doc.store() == StateConfig.Store.FILE
            ? new FileStateTarget(doc.file().path(), false)
            : new ObjectStateTarget(Components.objectBackend(doc))) {
      cursors = t.show();
    }
    Map<String, String> matching = new TreeMap<>();
    cursors.forEach(
        (k, v) -> {
          if (p.matcher(k).matches()) {
            matching.put(k, v);
          }
        });
    if (matching.isEmpty()) {
      return;
    }
    out.println();
    out.println("# backfill cursors (" + Components.describe(doc) + ", read-only):");
    matching.forEach((k, v) -> out.println(k + "\t" + v));
    out.println();
    out.println(matching.size() + " backfill cursor(s)");
  }

  /** CLI-8: {@code state set KEY VALUE}. */
  public int set(String key, String value, WriteFlags flags) {
    return guarded(
        () -> {
          refuseReserved(key);
          ValueFormats.problem(key, value)
              .ifPresent(
                  why ->
                      err.println(
                          "sf2loki: WARN: value of "
                              + key
                              + " is not in a format sf2loki reads ("
                              + why
                              + "); writing it verbatim"));
          write(
              flags,
              document(key),
              doc -> {
                doc.put(key, value);
                return doc;
              });
          KeyOwners.problem(cfg, key)
              .ifPresent(
                  why ->
                      err.println(
                          "sf2loki: WARN: no configured source reads "
                              + key
                              + " ("
                              + why
                              + "); written all the same"));
          out.println("sf2loki: set " + key + " = " + value);
          return 0;
        });
  }

  /** CLI-8: {@code state delete KEY}; a missing key is a no-op. */
  public int delete(String key, WriteFlags flags) {
    return guarded(
        () -> {
          refuseReserved(key);
          java.util.concurrent.atomic.AtomicBoolean existed =
              new java.util.concurrent.atomic.AtomicBoolean();
          write(
              flags,
              document(key),
              doc -> {
                existed.set(doc.remove(key) != null);
                return doc;
              });
          out.println(
              existed.get()
                  ? "sf2loki: deleted "
                      + key
                      + " (its source restarts from preset/lookback on next run)"
                  : "sf2loki: " + key + " was not set; nothing deleted");
          return 0;
        });
  }

  /** FEAT-8: {@code state export [--out FILE]}: the visible document as JSON. */
  public int export(Optional<Path> file) {
    return guarded(
        () -> {
          refusePerOrg("export");
          Map<String, String> doc;
          try (StateTarget t = target(false)) {
            doc = t.show();
          }
          byte[] json = CheckpointDocument.serialise(new TreeMap<>(doc));
          if (file.isPresent()) {
            try {
              Files.write(file.get(), json);
            } catch (IOException e) {
              throw new StateFileException(
                  FileProblem.describe(
                      FileProblem.Access.WRITE, "the export file", file.get(), e, null),
                  e);
            }
            err.println("sf2loki: exported " + doc.size() + " checkpoint(s) to " + file.get());
          } else {
            out.println(new String(json, StandardCharsets.UTF_8));
          }
          return 0;
        });
  }

  /** FEAT-8: {@code state import FILE [--merge|--replace]}: one conditional write. */
  public int importFrom(Path file, boolean replace, WriteFlags flags) {
    return guarded(
        () -> {
          refusePerOrg("import");
          byte[] bytes;
          try {
            bytes = Files.readAllBytes(file);
          } catch (IOException e) {
            throw new StateFileException(
                FileProblem.describe(FileProblem.Access.READ, "the import file", file, e, null), e);
          }
          Map<String, String> in =
              CheckpointDocument.parse(
                  bytes,
                  (what, cause) ->
                      new io.sf2loki.core.spi.StateCorruptException(
                          "import file " + file + " " + what, cause));
          if (in.remove(CheckpointDocument.FENCE_EPOCH_KEY) != null) {
            err.println(
                "sf2loki: WARN: ignoring "
                    + CheckpointDocument.FENCE_EPOCH_KEY
                    + " in "
                    + file
                    + "; the target keeps its own");
          }
          write(
              flags,
              doc -> {
                if (replace) {
                  doc.clear();
                }
                doc.putAll(in);
                return doc;
              });
          out.println(
              "sf2loki: imported "
                  + in.size()
                  + " checkpoint(s) into "
                  + Components.describe(cfg.state())
                  + (replace ? " (replaced)" : " (merged)"));
          return 0;
        });
  }

  private void write(WriteFlags flags, java.util.function.UnaryOperator<Map<String, String>> edit) {
    write(flags, cfg.state(), edit);
  }

  private void write(
      WriteFlags flags,
      StateConfig doc,
      java.util.function.UnaryOperator<Map<String, String>> edit) {
    if (!flags.force()) {
      WriteGuard.check(cfg, flags.daemonStopped(), clock.instant());
    }
    try (StateTarget t = target(doc, flags.force())) {
      t.edit(edit);
    }
  }

  /**
   * STATE-19, CLI-24: the document {@code key} lives in — under {@code coordinate.per_org} the
   * document of the org its {@code org=<name>:} prefix names (refused without one), else the
   * deployment's.
   */
  private StateConfig document(String key) {
    if (!cfg.coordinate().perOrg()) {
      return cfg.state();
    }
    var org = io.sf2loki.core.org.OrgScope.split(key).org();
    if (org.isEmpty() || cfg.orgs().stream().noneMatch(o -> o.name().equals(org.get()))) {
      throw new IllegalArgumentException(
          "under coordinate.per_org each org's checkpoints live in its own document (STATE-19);"
              + " prefix the key with org=<name>: of a configured org ("
              + String.join(", ", cfg.orgs().stream().map(o -> o.name()).toList())
              + ")");
    }
    return StateStores.orgDocument(cfg.state(), org.get());
  }

  /** CLI-24: {@code state show} under {@code coordinate.per_org}: every org's document. */
  private int showPerOrg(Pattern p) {
    int n = 0;
    for (var org : cfg.orgs()) {
      StateConfig doc = StateStores.orgDocument(cfg.state(), org.name());
      Map<String, String> entries;
      try (StateTarget t = target(doc, false)) {
        entries =
            doc.store() == StateConfig.Store.FILE && Files.notExists(doc.file().path())
                ? Map.of()
                : t.show();
      }
      out.println("# org " + org.name() + " (" + StateStores.describe(doc) + ")");
      for (Map.Entry<String, String> e : new TreeMap<>(entries).entrySet()) {
        if (p.matcher(e.getKey()).matches()) {
          out.println(e.getKey() + "\t" + e.getValue());
          n++;
        }
      }
    }
    out.println();
    out.println(n + " checkpoint(s) in " + cfg.orgs().size() + " org document(s)");
    showBackfill(p);
    return 0;
  }

  /** CLI-24: export and import act on one document; refused under {@code coordinate.per_org}. */
  private void refusePerOrg(String command) {
    if (cfg.coordinate().perOrg()) {
      throw new IllegalArgumentException(
          "state "
              + command
              + " acts on one document; under coordinate.per_org each org has its own (STATE-19:"
              + " "
              + StateStores.describe(StateStores.orgDocument(cfg.state(), "<org>"))
              + "); use state show / set / delete with org=<name>: keys");
    }
  }

  private StateTarget target(boolean force) {
    return target(cfg.state(), force);
  }

  private StateTarget target(StateConfig s, boolean force) {
    return s.store() == StateConfig.Store.FILE
        ? new FileStateTarget(s.file().path(), force)
        : new ObjectStateTarget(Components.objectBackend(s));
  }

  private static void refuseReserved(String key) {
    if (key.equals(CheckpointDocument.FENCE_EPOCH_KEY)) {
      throw new StateRefusedException(
          CheckpointDocument.FENCE_EPOCH_KEY + " is reserved for the store (STATE-12)");
    }
  }

  /** Whole-key glob (XF-11). */
  static Pattern globPattern(String glob) {
    return Glob.toPattern(glob);
  }

  @FunctionalInterface
  private interface Body {
    int run() throws IOException;
  }

  private int guarded(Body body) {
    try {
      return body.run();
    } catch (StateFileException e) {
      err.println("sf2loki: " + e.getMessage());
      return EXIT_FILE;
    } catch (StateRefusedException | StateException | IllegalArgumentException e) {
      err.println("sf2loki: " + e.getMessage());
      return 1;
    } catch (IOException e) {
      err.println("sf2loki: " + e.getMessage());
      return 1;
    }
  }

  /** CLI-9 checks that need no store access: the lease and the object store under noop. */
  static final class WriteGuard {
    private WriteGuard() {}

    static void check(Sf2lokiConfig cfg, boolean daemonStopped, java.time.Instant now) {
      Optional<LeaseInspector> lease = LeaseInspector.of(cfg.coordinate());
      if (lease.isPresent()) {
        LeaseInspector.LeaseView v;
        try {
          v = lease.get().read();
        } catch (LeaseInspector.UnreadableLeaseException e) {
          throw new StateRefusedException(
              "refusing to write: " + e.getMessage() + "; " + StateRefusedException.STOP_OR_FORCE);
        }
        if (v.heldAt(now)) {
          throw new StateRefusedException(
              "refusing to write: the lease "
                  + v.where()
                  + " is held by "
                  + v.holder().orElseThrow()
                  + " until "
                  + v.expiresAt().orElseThrow()
                  + " (a daemon is running); "
                  + StateRefusedException.STOP_OR_FORCE);
        }
      }
      if (cfg.coordinate().type() == CoordinateConfig.Type.NOOP
          && cfg.state().store() != StateConfig.Store.FILE
          && !daemonStopped) {
        throw new StateRefusedException(
            "refusing to write: with state.store="
                + cfg.state().store().yaml()
                + " and coordinate.type=noop no lock shows whether a daemon is running; stop it,"
                + " then pass --i-stopped-the-daemon (or --force)");
      }
    }
  }
}
