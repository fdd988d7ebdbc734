package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Secret;
import io.sf2loki.app.config.SourcesConfig;
import io.sf2loki.app.config.TransformRule;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.transform.TransformChain;
import io.sf2loki.salesforce.apexlog.ApexLogSource;
import io.sf2loki.salesforce.apexlog.MetadataTransform;
import io.sf2loki.salesforce.elf.RowTransform;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.pubsub.TopicReader;
import io.sf2loki.salesforce.source.SourceTransforms;
import java.util.List;

/**
 * The compiled {@code transforms} of one org's four sources (SPEC XF-1…XF-7), each salted with the
 * org's {@code sources.transform_salt} ({@code ""} when absent, XF-2) and counting its drops under
 * its {@code source} label. Compiled once per process (a chain is immutable and thread-safe) and
 * handed to every term's sources and to backfill (XF-10).
 *
 * @param pubsub {@code sources.pubsub.transforms}
 * @param objects {@code sources.eventlog_objects.transforms}
 * @param eventLogFile {@code sources.eventlogfile.transforms}
 * @param apexLog {@code sources.apexlog.transforms} (metadata only, never the body)
 */
public record OrgTransforms(
    SourceTransforms pubsub,
    SourceTransforms objects,
    SourceTransforms eventLogFile,
    SourceTransforms apexLog) {
  /**
   * Compiles the org's rules. The binder has refused rules that cannot compile (CFG-19).
   *
   * @throws io.sf2loki.core.transform.InvalidTransformException when a rule cannot run
   */
  public static OrgTransforms of(OrgConfig org, Sf2lokiMetrics metrics) {
    SourcesConfig s = org.sources();
    String salt = s.transformSalt().map(Secret::reveal).orElse("");
    return new OrgTransforms(
        compile(s.pubsub().transforms(), salt, TopicReader.SOURCE, metrics),
        compile(s.eventlogObjects().transforms(), salt, EventLogObjectSource.SOURCE, metrics),
        compile(s.eventlogfile().transforms(), salt, IdleSeries.ELF, metrics),
        compile(s.apexlog().transforms(), salt, ApexLogSource.SOURCE, metrics));
  }

  private static SourceTransforms compile(
      List<TransformRule> rules, String salt, String source, Sf2lokiMetrics metrics) {
    if (rules.isEmpty()) {
      return SourceTransforms.NONE;
    }
    TransformChain chain =
        TransformChain.compile(rules.stream().map(TransformRule::toSpec).toList(), salt);
    return new SourceTransforms(chain, source, metrics);
  }

  /** The ELF rules as the ELF sources take them ({@link RowTransform#NONE} without rules). */
  public RowTransform elfRows() {
    return rows(eventLogFile);
  }

  /** The object rules as the object source takes them. */
  public RowTransform objectRows() {
    return rows(objects);
  }

  /** The ApexLog rules as the ApexLog source takes them (metadata only, APX-7). */
  public MetadataTransform apexLogMetadata() {
    SourceTransforms t = apexLog;
    return t.isEmpty() ? MetadataTransform.NONE : t::apply;
  }

  private static RowTransform rows(SourceTransforms t) {
    return t.isEmpty() ? RowTransform.NONE : t::apply;
  }
}
