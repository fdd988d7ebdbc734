package io.sf2loki.app.doctor;

import io.opentelemetry.api.metrics.MeterProvider;
import io.sf2loki.app.cli.Version;
import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.TransformRule;
import io.sf2loki.app.run.Components;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code doctor [--json] [--org NAME]} (SPEC CLI-10, DOC-1…DOC-3, CFG-25): runs the DOC-2 checks in
 * order for one org against the real endpoints, through the daemon's own clients and settings.
 */
public final class Doctor {
  private static final String CONFIG_FAILED = "skipped: config failed";
  private static final String AUTH_FAILED = "skipped: auth failed";
  private static final List<String> LATER_ROWS =
      List.of(
          "auth",
          "permissions",
          "pubsub",
          "entitlement",
          "traceflags",
          "loki",
          "transforms",
          "telemetry",
          "state",
          "coordinator",
          "limits");

  private final Map<String, String> env;
  private final PrintStream err;
  private final InstantSource clock;

  /**
   * @param env the environment for secret references and {@code SF2LOKI_*} overrides
   * @param err where the CFG-25 note goes
   * @param clock wall clock (TraceFlag expiry, the test line's timestamp, lease expiry)
   */
  public Doctor(Map<String, String> env, PrintStream err, InstantSource clock) {
    this.env = Objects.requireNonNull(env, "env");
    this.err = Objects.requireNonNull(err, "err");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Runs every check.
   *
   * @param configOrNull {@code --config}
   * @param orgName {@code --org}, empty for the first org
   * @throws InterruptedException if interrupted during a network check
   */
  public DoctorReport run(Path configOrNull, Optional<String> orgName) throws InterruptedException {
    List<Check> rows = new ArrayList<>();
    Sf2lokiConfig cfg;
    try {
      cfg = new ConfigLoader().load(configOrNull, env);
      Daemon.checkBuildable(cfg);
    } catch (ConfigException | IllegalArgumentException e) {
      rows.add(Check.fail("config", e.getMessage()));
      LATER_ROWS.forEach(n -> rows.add(Check.skip(n, CONFIG_FAILED)));
      return new DoctorReport(rows, 2);
    }
    rows.add(Check.pass("config", "loaded and built " + describe(configOrNull)));
    List<String> names = cfg.orgs().stream().map(OrgConfig::name).toList();
    if (orgName.isPresent() && cfg.org(orgName.get()).isEmpty()) {
      rows.add(
          Check.fail(
              "org", "--org '" + orgName.get() + "' is not configured; available orgs: " + names));
      LATER_ROWS.forEach(n -> rows.add(Check.skip(n, "skipped: unknown org")));
      return new DoctorReport(rows, 2);
    }
    OrgConfig org = orgName.flatMap(cfg::org).orElse(cfg.orgs().getFirst());
    if (cfg.multiOrg() && cfg.orgs().size() > 1 && orgName.isEmpty()) {
      err.println("sf2loki: doctor operates on org '" + org.name() + "' only");
      rows.add(Check.warn("org", "operates on org " + org.name() + " only"));
    }
    orgRows(cfg, org, rows);
    return DoctorReport.of(rows);
  }

  private void orgRows(Sf2lokiConfig cfg, OrgConfig org, List<Check> rows)
      throws InterruptedException {
    Sf2lokiMetrics metrics = new Sf2lokiMetrics(MeterProvider.noop(), Version.get());
    String orgId;
    Check limits;
    try (SpoolDirectory spool = SpoolDirectory.forCurrentProcess();
        Components.Org clients = Components.org(org, metrics, spool)) {
      SalesforceChecks sf = new SalesforceChecks(org, clients);
      SalesforceChecks.AuthResult auth = sf.auth();
      rows.add(auth.check());
      orgId = auth.orgId();
      if (orgId == null) {
        Stream.of("permissions", "pubsub", "entitlement", "traceflags")
            .forEach(n -> rows.add(Check.skip(n, AUTH_FAILED)));
        limits = Check.skip("limits", AUTH_FAILED);
      } else {
        rows.add(sf.permissions());
        rows.addAll(PubSubCheck.run(org.sources().pubsub(), clients));
        rows.add(sf.entitlement());
        rows.add(sf.traceFlags(clock.instant()));
        limits = sf.limits();
      }
    }
    Map<String, String> labels =
        new LinkedHashMap<>(
            Components.staticLabels(
                cfg, org, orgId != null ? orgId : org.salesforce().orgId().orElse("")));
    labels.values().removeIf(String::isEmpty);
    rows.add(SinkChecks.loki(cfg, labels, clock.instant()));
    rows.add(transforms(org));
    rows.add(SinkChecks.telemetry(cfg));
    rows.add(StoreChecks.state(cfg.state()));
    rows.add(StoreChecks.coordinator(cfg.coordinate(), clock.instant()));
    rows.add(limits);
  }

  /** Row 8: hash rules without a salt (CFG-24). */
  static Check transforms(OrgConfig org) {
    var s = org.sources();
    List<TransformRule> hash =
        Stream.of(
                s.pubsub().transforms(),
                s.eventlogObjects().transforms(),
                s.eventlogfile().transforms(),
                s.apexlog().transforms())
            .flatMap(List::stream)
            .filter(r -> r.action() == io.sf2loki.core.transform.TransformAction.HASH)
            .toList();
    if (hash.isEmpty()) {
      return Check.skip("transforms", "no hash rules");
    }
    boolean salted = s.transformSalt().map(x -> !x.reveal().isEmpty()).orElse(false);
    if (!salted) {
      return Check.warn(
          "transforms",
          hash.size() + " hash rule(s) without sources.transform_salt: hashes are guessable");
    }
    return Check.pass("transforms", hash.size() + " salted hash rule(s)");
  }

  private static String describe(Path p) {
    return p == null ? "(defaults and environment)" : p.toString();
  }
}
