package io.sf2loki.app.run;

import io.sf2loki.app.cli.Version;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.StateConfig;
import io.sf2loki.app.telemetry.TelemetrySettings;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.salesforce.auth.OrgIdResolver;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import io.sf2loki.state.gcs.GcsAuth;
import io.sf2loki.state.gcs.GcsBackend;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.object.ObjectBackend;
import io.sf2loki.state.s3.S3Backend;
import java.util.Map;

/**
 * The daemon's component builders, for the operator commands ({@code doctor}, {@code state}) so
 * they talk to Salesforce, Loki and the stores through exactly the clients and settings the daemon
 * uses (SPEC DOC-2, CLI-7…CLI-9). Nothing here performs I/O.
 */
public final class Components {
  private Components() {}

  /** The Salesforce clients of one org; {@link Org#close()} releases them. */
  public static final class Org implements AutoCloseable {
    private final OrgClients clients;

    private Org(OrgClients clients) {
      this.clients = clients;
    }

    /** AUTH-1 token provider. */
    public TokenProvider tokens() {
      return clients.tokens;
    }

    /** AUTH-8 org-id resolver. */
    public OrgIdResolver orgIds() {
      return clients.orgIds;
    }

    /** The REST client (SOQL, Tooling, {@code getObject}). */
    public HttpSalesforceRest rest() {
      return clients.rest;
    }

    @Override
    public void close() {
      clients.close();
    }
  }

  /**
   * Builds one org's clients without any network call.
   *
   * @throws IllegalArgumentException when the private key cannot be parsed
   */
  public static Org org(OrgConfig org, Sf2lokiMetrics metrics, SpoolDirectory spool) {
    return new Org(new OrgClients(org, metrics, TimeSource.system(), spool));
  }

  /** {@code sink.loki} → the sink settings the daemon pushes with. */
  public static LokiSinkSettings sink(Sf2lokiConfig cfg) {
    return cfg.loki().push().withVersion(Version.get());
  }

  /**
   * FEAT-6: the sink settings of an org whose {@code orgs[].loki} differs from {@code sink.loki}
   * (its own tenant or token, ORG-14), or empty when the org shares the deployment's identity.
   */
  public static java.util.Optional<LokiSinkSettings> orgSink(Sf2lokiConfig cfg, OrgConfig org) {
    LokiSinkSettings base = sink(cfg);
    return cfg.multiOrg() && TenantSplitSink.overrides(org, base)
        ? java.util.Optional.of(org.loki().applyTo(base))
        : java.util.Optional.empty();
  }

  /**
   * {@code sources.eventlogfile} of one org → the ELF settings the daemon uses (finite: cycles back
   * to back), for {@code backfill} (BF-1).
   */
  public static io.sf2loki.salesforce.elf.EventLogFileSettings eventLogFile(
      Sf2lokiConfig cfg, OrgConfig org) {
    return org.sources().eventlogfile().settings().withFinite(true);
  }

  /**
   * Opens a checkpoint store of the configured kind (STATE-3…STATE-14); {@code backfill} opens its
   * own document with it (BF-2). Nothing is read yet.
   *
   * @param sleeper waits between STATE-9 retries
   * @param stop cuts those waits short
   */
  public static io.sf2loki.core.spi.CheckpointStore openStore(
      StateConfig c, io.sf2loki.core.time.Sleeper sleeper, io.sf2loki.core.time.StopSignal stop) {
    return StateStores.open(c, sleeper, stop);
  }

  /** {@code service.telemetry} → the telemetry settings. */
  public static TelemetrySettings telemetry(Sf2lokiConfig cfg) {
    return cfg.service().telemetry();
  }

  /**
   * Static labels of a multi-org deployment (PIPE-4, ORG-3): {@code job}, {@code service_name},
   * then {@code sink.loki.labels}; each org's wrapper adds {@code org}, {@code environment} and
   * {@code sf_org_id} to its entries.
   */
  public static Map<String, String> deploymentLabels(Sf2lokiConfig cfg) {
    Map<String, String> labels = new java.util.LinkedHashMap<>();
    labels.put("job", "sf2loki");
    labels.put("service_name", "sf2loki");
    labels.putAll(cfg.loki().labels());
    return labels;
  }

  /**
   * Static labels of a single-org deployment (PIPE-4): {@code job}, {@code service_name}, {@code
   * environment}, {@code sf_org_id}, then {@code sink.loki.labels} (operator wins).
   */
  public static Map<String, String> staticLabels(Sf2lokiConfig cfg, OrgConfig org, String orgId) {
    Map<String, String> labels = new java.util.LinkedHashMap<>();
    labels.put("job", "sf2loki");
    labels.put("service_name", "sf2loki");
    labels.put("environment", org.salesforce().environment());
    labels.put("sf_org_id", orgId);
    labels.putAll(cfg.loki().labels());
    return labels;
  }

  /**
   * The object holding the checkpoint document of an s3/gcs store: one request per call, no retries
   * (STATE-8, STATE-11).
   *
   * @throws IllegalArgumentException for {@code store=file}
   * @throws io.sf2loki.core.spi.StateException when GCS credentials cannot be loaded
   */
  public static ObjectBackend objectBackend(StateConfig c) {
    return switch (c.store()) {
      case S3 -> new S3Backend(c.s3());
      case GCS -> {
        GcsStoreSettings g = c.gcs();
        yield new GcsBackend(g, GcsAuth.of(g));
      }
      case FILE -> throw new IllegalArgumentException("state.store=file has no object");
    };
  }

  /** Where the document lives: the file path, {@code s3://…} or {@code gs://…}. */
  public static String describe(StateConfig c) {
    return StateStores.describe(c);
  }

  /** URL without user-info or query string (OBS-11). */
  public static String scrub(String url) {
    return UrlScrubber.scrub(url);
  }
}
