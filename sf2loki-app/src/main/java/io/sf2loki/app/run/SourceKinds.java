package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.PubSubConfig;
import io.sf2loki.app.config.SourcesConfig;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.salesforce.apexlog.ApexLogFactory;
import io.sf2loki.salesforce.elf.EventLogFileFactory;
import io.sf2loki.salesforce.objects.EventLogObjectsFactory;
import io.sf2loki.salesforce.pubsub.PubSubFactory;
import io.sf2loki.salesforce.source.SalesforceOrg;
import io.sf2loki.salesforce.source.SourceFactory;
import java.time.InstantSource;
import java.util.List;

/**
 * The source kinds of one org (SPEC §1.3 {@code sources}): maps the org's configuration onto one
 * {@link SourceFactory} per kind, in the order their sources join a term (Pub/Sub, EventLogFile,
 * objects, ApexLog). The only place the application names the kinds; a new kind adds its factory
 * (from its own package) here. The late-visibility revisit is part of the objects and ApexLog
 * kinds, not a kind of its own.
 */
final class SourceKinds {
  private SourceKinds() {}

  /**
   * Builds the org's factories; only an enabled Pub/Sub kind builds its channel (no network call).
   *
   * @param org the org's configuration
   * @param clients the org's process-lifetime clients
   * @param transforms the org's compiled rules per source (XF-1)
   * @param finite sources return once caught up (demo, tests)
   * @param wall wall clock of the process-lifetime parts
   * @param watch FEAT-21 registry of the Pub/Sub topic readers
   */
  static List<SourceFactory> of(
      OrgConfig org,
      SalesforceOrg clients,
      OrgTransforms transforms,
      boolean finite,
      InstantSource wall,
      ProgressWatch watch) {
    SourcesConfig s = org.sources();
    PubSubConfig ps = s.pubsub();
    return List.of(
        new PubSubFactory(
            ps.enabled(),
            ps.channel(),
            ps.source(),
            ps.reader(),
            clients,
            wall,
            watch,
            transforms.pubsub()),
        EventLogFileFactory.of(
            s.eventlogfile().enabled(),
            s.eventlogfile().settings().withFinite(finite),
            transforms.elfRows()),
        EventLogObjectsFactory.of(
            s.eventlogObjects().enabled(),
            s.eventlogObjects().settings().withFinite(finite),
            transforms.objectRows()), // XF-8
        ApexLogFactory.of(
            s.apexlog().enabled(),
            s.apexlog().settings().withFinite(finite),
            transforms.apexLogMetadata()));
  }
}
