package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.metrics.MeterProvider;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composition seam: an org's source factories ({@link SourceKinds}) and the per-term assembly
 * ({@link TermSources}) build each term's sources without any network call.
 */
class SourceKindsTest {
  @TempDir Path dir;

  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(MeterProvider.noop(), "test");

  private OrgConfig org(String sources) throws Exception {
    Path p = dir.resolve("c" + System.nanoTime() + ".yaml");
    Files.writeString(
        p,
        "salesforce: {client_id: c, auth_mode: client_credentials, client_secret: S,"
            + " login_url: 'https://acme.my.salesforce.com'}\n"
            + "sources:\n"
            + sources
            + "sink: {loki: {url: 'http://loki:3100/loki/api/v1/push'}}\n");
    return new ConfigLoader().load(p, Map.of()).orgs().getFirst();
  }

  /** Two terms' sources of {@code org}, built the way the daemon builds them. */
  private List<List<Source>> twoTerms(OrgConfig org) throws Exception {
    SpoolDirectory spool = new SpoolDirectory(dir, 1, pid -> true);
    TimeSource time = TimeSource.system();
    try (OrgAssembly assembly = new OrgAssembly(org, metrics, time, spool);
        AutoCloseable factories =
            assembly.buildSources(false, time.wall(), new ProgressWatch(time.ticker()))) {
      TermSources term =
          new TermSources(
              assembly,
              time,
              Runnable::run,
              metrics,
              new InMemoryCheckpointStore(),
              PollReporter.NONE,
              null);
      return List.of(term.create(), term.create());
    }
  }

  private static List<String> names(List<Source> sources) {
    return sources.stream().map(Source::name).toList();
  }

  @Test
  @DisplayName(
      "PIPE-20: every term gets fresh instances of each enabled kind's source, in kind order"
          + " (pubsub, eventlogfile, eventlog_objects, apexlog)")
  void pipe20_freshSourcesPerTermInKindOrder() throws Exception {
    List<List<Source>> terms =
        twoTerms(
            org(
                "  pubsub: {topics: [/event/ApiEventStream]}\n"
                    + "  eventlogfile: {enabled: true, event_types: [{name: Logout}]}\n"
                    + "  eventlog_objects: {enabled: true, objects: [{name: LoginHistory}]}\n"
                    + "  apexlog: {enabled: true}\n"));
    List<String> kinds = List.of("pubsub", "eventlogfile", "eventlog_objects", "apexlog");
    assertThat(names(terms.get(0))).isEqualTo(kinds);
    assertThat(names(terms.get(1))).isEqualTo(kinds);
    for (int i = 0; i < kinds.size(); i++) {
      assertThat(terms.get(1).get(i)).as(kinds.get(i)).isNotSameAs(terms.get(0).get(i));
    }
  }

  @Test
  @DisplayName(
      "PIPE-20: a disabled kind builds no source (Pub/Sub disabled or without topics, objects"
          + " without objects)")
  void pipe20_disabledKindsBuildNothing() throws Exception {
    assertThat(
            twoTerms(
                org(
                    "  pubsub: {enabled: false, topics: [/event/ApiEventStream]}\n"
                        + "  eventlogfile: {enabled: false}\n"
                        + "  eventlog_objects: {enabled: true, objects: []}\n"
                        + "  apexlog: {enabled: false}\n")))
        .allSatisfy(sources -> assertThat(sources).isEmpty());
    assertThat(
            twoTerms(
                org(
                    "  pubsub: {topics: []}\n"
                        + "  eventlogfile: {enabled: false}\n"
                        + "  apexlog: {enabled: true}\n")))
        .allSatisfy(sources -> assertThat(names(sources)).containsExactly("apexlog"));
  }
}
