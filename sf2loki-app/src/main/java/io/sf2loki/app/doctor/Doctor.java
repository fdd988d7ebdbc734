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
 * {@code doctor [--json] [--org NAME | --all-orgs]} (SPEC CLI-10, DOC-1…DOC-3, DOC-6, CFG-25,
 * FEAT-9): runs the DOC-2 checks in order for one org, or for every org, against the real
 * endpoints, through the daemon's own clients and settings.
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
   * Runs every check for one org (DOC-1).
   *
   * @param configOrNull {@code --config}
   * @param orgName {@code --org}, empty for the first org
   * @throws InterruptedException if interrupted during a network check
   */
  public DoctorReport run(Path configOrNull, Optional<String> orgName) throws InterruptedException {
    return run(configOrNull, orgName, false);
  }

  /**
   * Runs every check (DOC-1); with {@code allOrgs} on a multi-org configuration, FEAT-9/DOC-6: the
   * per-org rows of every org, prefixed {@code <org>/}, then the deployment-wide rows once.
   *
   * @param configOrNull {@code --config}
   * @param orgName {@code --org}, empty for the first org; must be empty with {@code allOrgs}
   * @param allOrgs {@code --all-orgs}
   * @throws InterruptedException if interrupted during a network check
   */
  public DoctorReport run(Path configOrNull, Optional<String> orgName, boolean allOrgs)
      throws InterruptedException {
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
    if (allOrgs && cfg.multiOrg()) {
      allOrgRows(cfg, rows);
      return DoctorReport.of(rows);
    }
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
      err.println(
          "sf2loki: doctor operates on org '" + org.name() + "' only (--all-orgs: every org)");
      rows.add(
          Check.warn(
              "org", "operates on org " + org.name() + " only; --all-orgs checks every org"));
    }
    orgRows(cfg, org, rows);
    return DoctorReport.of(rows);
  }

  /** DOC-2 order for one org: its Salesforce rows, loki, transforms, the deployment's, limits. */
  private void orgRows(Sf2lokiConfig cfg, OrgConfig org, List<Check> rows)
      throws InterruptedException {
    OrgPart sf = salesforce(org, salesforcePath(cfg, org));
    rows.addAll(sf.rows());
    Map<String, String> labels =
        new LinkedHashMap<>(
            Components.staticLabels(
                cfg, org, sf.orgId() != null ? sf.orgId() : org.salesforce().orgId().orElse("")));
    labels.values().removeIf(String::isEmpty);
    io.sf2loki.loki.LokiSinkSettings sink =
        Components.orgSink(cfg, org).orElseGet(() -> Components.sink(cfg)); // FEAT-6: its tenant
    rows.add(SinkChecks.loki(cfg, sink, "loki", labels, clock.instant()));
    rows.add(transforms(org));
    rows.add(SinkChecks.telemetry(cfg));
    rows.add(StoreChecks.state(cfg.state()));
    rows.add(StoreChecks.coordinator(cfg.coordinate(), clock.instant()));
    rows.add(sf.limits());
  }

  /**
   * FEAT-9, DOC-6: per org in configuration order its rows 2–6, its own {@code loki} row when it
   * has its own Loki identity (FEAT-6), rows 8 and 12, all prefixed {@code <org>/}; then rows 7, 9,
   * 10 and 11 once for the deployment.
   */
  private void allOrgRows(Sf2lokiConfig cfg, List<Check> rows) throws InterruptedException {
    for (OrgConfig org : cfg.orgs()) {
      OrgPart sf = salesforce(org, salesforcePath(cfg, org));
      List<Check> own = new ArrayList<>(sf.rows());
      Optional<io.sf2loki.loki.LokiSinkSettings> sink = Components.orgSink(cfg, org);
      if (sink.isPresent()) {
        Map<String, String> labels = new LinkedHashMap<>(Components.deploymentLabels(cfg));
        labels.put("org", org.name()); // ORG-3
        labels.put("environment", org.salesforce().environment());
        labels.put("sf_org_id", sf.orgId() != null ? sf.orgId() : "");
        labels.values().removeIf(String::isEmpty);
        own.add(SinkChecks.loki(cfg, sink.get(), "loki", labels, clock.instant()));
      }
      own.add(transforms(org));
      own.add(sf.limits());
      own.forEach(c -> rows.add(new Check(org.name() + "/" + c.name(), c.status(), c.detail())));
    }
    rows.add(SinkChecks.loki(cfg, Components.deploymentLabels(cfg), clock.instant()));
    rows.add(SinkChecks.telemetry(cfg));
    rows.add(StoreChecks.state(cfg.state()));
    rows.add(StoreChecks.coordinator(cfg.coordinate(), clock.instant()));
  }

  /**
   * One org's Salesforce rows.
   *
   * @param rows rows 2–6 ({@code auth}, {@code permissions}, {@code pubsub…}, {@code entitlement},
   *     {@code traceflags})
   * @param limits row 12
   * @param orgId the resolved org id, or null when auth failed
   */
  private record OrgPart(List<Check> rows, Check limits, String orgId) {}

  /**
   * The dotted path of the org's {@code salesforce} block in hints: {@code orgs.<i>.salesforce}.
   */
  private static String salesforcePath(Sf2lokiConfig cfg, OrgConfig org) {
    int i = cfg.orgs().indexOf(org);
    return cfg.multiOrg() && i >= 0 ? "orgs." + i + ".salesforce" : "salesforce";
  }

  private OrgPart salesforce(OrgConfig org, String path) throws InterruptedException {
    List<Check> rows = new ArrayList<>();
    Sf2lokiMetrics metrics = new Sf2lokiMetrics(MeterProvider.noop(), Version.get());
    try (SpoolDirectory spool = SpoolDirectory.forCurrentProcess();
        Components.Org clients = Components.org(org, metrics, spool)) {
      SalesforceChecks sf = new SalesforceChecks(org, clients, path);
      SalesforceChecks.AuthResult auth = sf.auth();
      rows.add(auth.check());
      if (auth.orgId() == null) {
        Stream.of("permissions", "pubsub", "entitlement", "traceflags")
            .forEach(n -> rows.add(Check.skip(n, AUTH_FAILED)));
        return new OrgPart(rows, Check.skip("limits", AUTH_FAILED), null);
      }
      rows.add(sf.permissions());
      rows.addAll(PubSubCheck.run(org.sources().pubsub(), clients));
      rows.add(sf.entitlement());
      rows.add(sf.traceFlags(clock.instant()));
      return new OrgPart(rows, sf.limits(), auth.orgId());
    }
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
