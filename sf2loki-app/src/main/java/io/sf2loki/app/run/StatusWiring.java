package io.sf2loki.app.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.app.health.StatusSnapshot;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.state.lease.LeaseCoordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Builds the FEAT-3 {@code /statusz} snapshot from the daemon's process-lifetime holders: the
 * readiness state (role), the lease coordinator (epoch), the {@link ActiveTerm} (lane and governor
 * state) and the checkpoint store's cached values (positions, SPEC §3.3 key table).
 *
 * <p>Holds no secrets: names, watermarks and counts only. Lane figures are the running term's
 * totals over all lanes (one row {@code all}); bytes are not exposed by {@link ActiveTerm} and show
 * as -1. Poll results and position ages are not tracked yet ({@code -}, -1).
 */
final class StatusWiring implements Supplier<StatusSnapshot> {
  /** Shown where a value is not known. */
  static final String UNKNOWN = "-";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Sf2lokiConfig cfg;
  private final String version;
  private final Readiness readiness;
  private final ActiveTerm activeTerm;
  private volatile CheckpointStore store;
  private volatile Object coordinator;

  StatusWiring(Sf2lokiConfig cfg, String version, Readiness readiness, ActiveTerm activeTerm) {
    this.cfg = cfg;
    this.version = version;
    this.readiness = readiness;
    this.activeTerm = activeTerm;
  }

  /** Reads positions from {@code s} (its cache, {@link CheckpointStore#load}); returns this. */
  StatusWiring store(CheckpointStore s) {
    this.store = s;
    return this;
  }

  /** Records the coordinator for the epoch column; returns {@code built} unchanged. */
  Coordinators.Built coordinator(Coordinators.Built built) {
    this.coordinator = built.coordinator();
    return built;
  }

  @Override
  public StatusSnapshot get() {
    Readiness.State state = readiness.state();
    String role =
        switch (state) {
          case READY -> "leader";
          case STANDBY -> "standby";
          default -> "starting";
        };
    long epoch =
        state == Readiness.State.READY && coordinator instanceof LeaseCoordinator lc
            ? lc.epoch()
            : -1;
    List<StatusSnapshot.Lane> lanes =
        activeTerm.running()
            ? List.of(
                new StatusSnapshot.Lane(
                    "all",
                    activeTerm.queueDepth(),
                    -1,
                    activeTerm.sinkFailingSince().map(Object::toString).orElse("")))
            : List.of();
    Optional<String> paused = activeTerm.egressPausedReason();
    return new StatusSnapshot(
        version,
        role,
        epoch,
        readiness.evaluate().body(),
        sources(),
        lanes,
        new StatusSnapshot.Governor(paused.isPresent(), paused.orElse("")));
  }

  /** One row per configured source of every org, named by its checkpoint key (SPEC §3.3). */
  private List<StatusSnapshot.Source> sources() {
    List<StatusSnapshot.Source> out = new ArrayList<>();
    for (OrgConfig org : cfg.orgs()) {
      String prefix = cfg.multiOrg() ? org.name() + "/" : "";
      var s = org.sources();
      if (s.pubsub().enabled()) {
        s.pubsub().explicitTopics().forEach(t -> out.add(row(prefix, "pubsub:" + t, null)));
      }
      if (s.eventlogfile().enabled()) {
        s.eventlogfile()
            .eventTypes()
            .forEach(t -> out.add(row(prefix, "eventlogfile:" + t.name(), "last_created")));
      }
      if (s.eventlogObjects().enabled()) {
        s.eventlogObjects()
            .objects()
            .forEach(o -> out.add(row(prefix, "eventlog_objects:" + o.name(), "last_ts")));
      }
      if (s.apexlog().enabled()) {
        out.add(row(prefix, "apexlog", "last_ts"));
      }
    }
    return out;
  }

  private StatusSnapshot.Source row(String prefix, String key, String field) {
    String position = prefix.isEmpty() ? position(key, field) : UNKNOWN;
    return new StatusSnapshot.Source(prefix + key, position, -1, UNKNOWN, "");
  }

  /**
   * The committed position of {@code key}: the raw value (Pub/Sub replay id), or the watermark
   * {@code field} of a JSON value (a legacy bare timestamp as is); {@code -} when absent or the
   * store cannot answer.
   */
  private String position(String key, String field) {
    CheckpointStore s = store;
    if (s == null) {
      return UNKNOWN;
    }
    try {
      Optional<String> v = s.load(key);
      if (v.isEmpty()) {
        return UNKNOWN;
      }
      String raw = v.get();
      if (field == null || !raw.startsWith("{")) {
        return raw;
      }
      JsonNode n = MAPPER.readTree(raw).get(field);
      return n == null || n.isNull() ? UNKNOWN : n.asText();
    } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) {
      return UNKNOWN;
    }
  }
}
