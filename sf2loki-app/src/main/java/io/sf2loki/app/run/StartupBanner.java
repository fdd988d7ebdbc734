package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.PubSubConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.loki.encode.SnappyCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The INFO {@code sf2loki starting} line (SPEC OBS-11): version, orgs, what each source kind of the
 * first org reads, the scrubbed sink URL and the push codec. Logged under the daemon's logger.
 */
final class StartupBanner {
  private static final Logger log = LoggerFactory.getLogger(Daemon.class);

  private StartupBanner() {}

  static void log(Sf2lokiConfig cfg, String version) {
    OrgConfig org = cfg.orgs().getFirst();
    log.atInfo()
        .addKeyValue("version", version)
        .addKeyValue(
            "orgs", cfg.multiOrg() ? cfg.orgs().stream().map(OrgConfig::name).toList() : "single")
        .addKeyValue(
            "pubsub_topics",
            org.sources().pubsub().enabled()
                ? pubsubBanner(org.sources().pubsub().explicitTopics(), org.sources().pubsub())
                : List.of())
        .addKeyValue(
            "eventlog_objects",
            org.sources().eventlogObjects().enabled()
                ? org.sources().eventlogObjects().settings().objects().size()
                : 0)
        .addKeyValue(
            "eventlogfile_event_types",
            org.sources().eventlogfile().enabled()
                ? org.sources().eventlogfile().settings().eventTypes().stream()
                    .map(t -> t.name())
                    .toList()
                : List.of())
        .addKeyValue("sink", UrlScrubber.scrub(cfg.loki().url()))
        .addKeyValue("org_limit_metrics", org.salesforce().limits().enabled())
        .addKeyValue("log_level", cfg.service().logLevel().yaml())
        .addKeyValue("health_addr", cfg.service().healthAddr())
        .addKeyValue(
            "snappy_codec",
            SnappyCodec.load(cfg.loki().snappyTempdir()).name().toLowerCase(Locale.ROOT))
        .log("sf2loki starting");
  }

  /** The banner's topics: the explicit filtered ones (PS-19), plus {@code *} when discovering. */
  private static List<String> pubsubBanner(List<String> explicit, PubSubConfig ps) {
    if (!ps.topics().contains("*")) {
      return explicit;
    }
    List<String> out = new ArrayList<>(explicit);
    out.add("*");
    return out;
  }
}
