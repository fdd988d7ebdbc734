package io.sf2loki.app.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Secret;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.app.health.StatusSnapshot;
import io.sf2loki.core.org.OrgScope;
import io.sf2loki.core.org.OrgSource;
import io.sf2loki.core.pipeline.LaneStatus;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.status.Redaction;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.state.lease.LeaseCoordinator;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Builds the FEAT-3 {@code /statusz} snapshot from the daemon's process-lifetime holders: the
 * readiness state (role), the lease coordinator (epoch), the {@link ActiveTerm} (per-lane depth,
 * bytes and failing mark, governor; OBS-36), the checkpoint store's cached values (positions, SPEC
 * §3.3 key table) and the {@link SourceStatusBoard} (poll results, errors, commit times; OBS-35).
 *
 * <p>Position age: {@code now − last_created} (eventlogfile), {@code now − last_ts}
 * (eventlog_objects, apexlog); a Pub/Sub replay id carries no time, so a topic's age is {@code now
 * −} this process's last commit of it (the instant PIPE-10's {@code
 * sf2loki_last_replay_commit_timestamp_seconds} reports), unknown before the first commit. Reads no
 * meter, so it works with telemetry off. Holds no secrets: names, watermarks, counts and messages
 * redacted against the configuration's secret values.
 */
final class StatusWiring implements Supplier<StatusSnapshot> {
  /** Shown where a value is not known. */
  static final String UNKNOWN = "-";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String PUBSUB = "pubsub:";

  private final Sf2lokiConfig cfg;
  private final String version;
  private final Readiness readiness;
  private final ActiveTerm activeTerm;
  private final SourceStatusBoard board;
  private final InstantSource wall;
  private volatile CheckpointStore store;
  private volatile Object coordinator;
  private volatile Map<String, ? extends CheckpointStore> orgStores = Map.of(); // STATE-19
  private volatile Supplier<List<ShardedTerms.OrgLead>> leads = List::of; // OBS-38

  /**
   * @param board the process-lifetime poll and commit record (also the sources' reporter)
   * @param wall the clock of {@code time} and of every age
   */
  StatusWiring(
      Sf2lokiConfig cfg,
      String version,
      Readiness readiness,
      ActiveTerm activeTerm,
      SourceStatusBoard board,
      InstantSource wall) {
    this.cfg = cfg;
    this.version = version;
    this.readiness = readiness;
    this.activeTerm = activeTerm;
    this.board = board;
    this.wall = wall;
  }

  /**
   * A board whose messages are redacted against every secret value of {@code cfg} (client secrets,
   * private keys, salts, Loki and telemetry tokens, URL passwords; CFG-7).
   */
  static SourceStatusBoard newBoard(Sf2lokiConfig cfg, InstantSource wall) {
    return new SourceStatusBoard(wall, new Redaction(secrets(cfg)));
  }

  static List<String> secrets(Sf2lokiConfig cfg) {
    List<String> out = new ArrayList<>();
    for (OrgConfig org : cfg.orgs()) {
      Stream.of(
              org.salesforce().clientSecret(),
              org.salesforce().privateKey(),
              org.sources().transformSalt())
          .flatMap(Optional::stream)
          .map(Secret::reveal)
          .forEach(out::add);
    }
    cfg.loki().authToken().map(Secret::reveal).ifPresent(out::add);
    java.util.Optional.ofNullable(cfg.service().telemetry().basicAuthToken())
        .filter(t -> !t.isEmpty())
        .ifPresent(out::add);
    try {
      String userInfo = URI.create(cfg.loki().url()).getRawUserInfo();
      if (userInfo != null) {
        out.add(userInfo);
        int colon = userInfo.indexOf(':');
        if (colon >= 0) {
          out.add(userInfo.substring(colon + 1));
        }
      }
    } catch (IllegalArgumentException notAUri) {
      // validated at load time; nothing to add
    }
    return out;
  }

  /** Reads positions from {@code s} (its cache, {@link CheckpointStore#load}); returns this. */
  StatusWiring store(CheckpointStore s) {
    this.store = s;
    return this;
  }

  /**
   * {@code coordinate.per_org}: positions of {@code org=<name>:} keys are read from that org's
   * document (STATE-19) and {@code orgs[]} lists whether this replica leads each org (OBS-38).
   */
  void shards(
      Supplier<List<ShardedTerms.OrgLead>> leads, Map<String, ? extends CheckpointStore> stores) {
    this.orgStores = Map.copyOf(stores);
    this.leads = leads;
  }

  /** Records the coordinator for the epoch column; returns {@code built} unchanged. */
  Coordinators.Built coordinator(Coordinators.Built built) {
    this.coordinator = built.coordinator();
    return built;
  }

  @Override
  public StatusSnapshot get() {
    Instant now = wall.instant();
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
    List<StatusSnapshot.Lane> lanes = new ArrayList<>();
    for (LaneStatus l : activeTerm.laneStatus()) {
      lanes.add(
          new StatusSnapshot.Lane(
              l.name(), // OBS-39: <kind>/<group> for an identity lane
              l.depth(),
              l.bytes(),
              l.failingSince().map(Instant::toString).orElse("")));
    }
    Optional<String> paused = activeTerm.egressPausedReason();
    return new StatusSnapshot(
        version,
        role,
        epoch,
        readiness.evaluate().body(),
        now.toString(),
        sources(now),
        lanes,
        new StatusSnapshot.Governor(paused.isPresent(), paused.orElse("")),
        leads.get().stream()
            .map(l -> new StatusSnapshot.Org(l.org(), l.leader(), l.epoch()))
            .toList());
  }

  /**
   * One row per configured source of every org, named by its checkpoint key (SPEC §3.3), then one
   * per source that reported a poll but is not configured by name (discovered types and topics).
   */
  private List<StatusSnapshot.Source> sources(Instant now) {
    List<StatusSnapshot.Source> out = new ArrayList<>();
    Set<String> named = new HashSet<>();
    for (OrgConfig org : cfg.orgs()) {
      String prefix = cfg.multiOrg() ? org.name() + "/" : "";
      var s = org.sources();
      List<Key> keys = new ArrayList<>();
      if (s.pubsub().enabled()) {
        s.pubsub().explicitTopics().forEach(t -> keys.add(new Key(PUBSUB + t, null)));
      }
      if (s.eventlogfile().enabled()) {
        s.eventlogfile()
            .settings()
            .eventTypes()
            .forEach(t -> keys.add(new Key("eventlogfile:" + t.name(), "last_created")));
      }
      if (s.eventlogObjects().enabled()) {
        s.eventlogObjects()
            .settings()
            .objects()
            .forEach(o -> keys.add(new Key("eventlog_objects:" + o.name(), "last_ts")));
      }
      if (s.apexlog().enabled()) {
        keys.add(new Key("apexlog", "last_ts"));
      }
      for (Key k : keys) {
        String stored = org.keyPrefix() + k.key(); // ORG-4: the board and store use stored keys
        named.add(stored);
        out.add(row(prefix + k.key(), stored, k.field(), now));
      }
    }
    for (String id : board.polledIds()) {
      if (OrgScope.split(id).org().isPresent() && OrgScope.split(id).key().isEmpty()) {
        continue; // an org-level failure (OrgSource.ORG_ROW): shown on the org's rows
      }
      if (named.add(id)) {
        OrgScope.Split split = OrgScope.split(id);
        String shown = split.org().map(o -> o + "/" + split.key()).orElse(id);
        String key = split.key();
        out.add(row(shown, id, key.startsWith(PUBSUB) ? null : watermarkField(key), now));
      }
    }
    return out;
  }

  /** A checkpoint key and the JSON field of its watermark (null for a Pub/Sub replay id). */
  private record Key(String key, String field) {}

  private static String watermarkField(String key) {
    return key.startsWith("eventlogfile:") ? "last_created" : "last_ts";
  }

  /**
   * @param name the row's name ({@code <org>/<key>} in multi-org)
   * @param key the stored checkpoint key (prefixed in multi-org, ORG-4), also the board's id
   */
  private StatusSnapshot.Source row(String name, String key, String field, Instant now) {
    String position = UNKNOWN;
    Optional<Instant> at = Optional.empty();
    Optional<String> raw = load(key);
    if (raw.isPresent()) {
      position = field == null ? raw.get() : watermarkText(raw.get(), field);
      at = field == null ? Optional.empty() : CommitGauges.watermark(raw.get(), field);
    }
    SourceStatusBoard.SourceStatus st = board.get(key);
    String basis = field == null ? "last_commit" : "watermark";
    if (field == null) {
      at = st.lastCommitAt(); // PIPE-10: a replay id carries no time
    }
    long age = at.map(t -> Math.max(0, Duration.between(t, now).toSeconds())).orElse(-1L);
    var poll = st.lastPoll();
    var err = newest(st.lastError(), orgFailure(key));
    return new StatusSnapshot.Source(
        name,
        position,
        at.map(Instant::toString).orElse(""),
        age,
        at.isPresent() ? basis : "",
        poll.map(p -> p.kind().label()).orElse(UNKNOWN),
        poll.map(SourceStatusBoard.PollResult::errorClass).orElse(""),
        poll.map(p -> p.at().toString()).orElse(""),
        err.map(SourceStatusBoard.LastError::message).orElse(""),
        err.map(e -> e.at().toString()).orElse(""));
  }

  /** FEAT-3: the org-level failure (org id, authentication) of a prefixed key's org, if any. */
  private Optional<SourceStatusBoard.LastError> orgFailure(String key) {
    return OrgScope.split(key)
        .org()
        .flatMap(o -> board.get("org=" + o + ":" + OrgSource.ORG_ROW).lastError());
  }

  private static Optional<SourceStatusBoard.LastError> newest(
      Optional<SourceStatusBoard.LastError> a, Optional<SourceStatusBoard.LastError> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return a.isEmpty() ? b : a;
    }
    return b.get().at().isAfter(a.get().at()) ? b : a;
  }

  /** The stored value of {@code key}; empty when absent or the store cannot answer. */
  private Optional<String> load(String key) {
    CheckpointStore s = OrgScope.split(key).org().map(o -> orgStores.get(o)).orElse(null);
    if (s == null) {
      s = store;
    }
    if (s == null) {
      return Optional.empty();
    }
    try {
      return s.load(key);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The watermark {@code field} of a JSON value (a legacy bare timestamp as is), or {@code -}. */
  private static String watermarkText(String raw, String field) {
    if (!raw.startsWith("{")) {
      return raw;
    }
    try {
      JsonNode n = MAPPER.readTree(raw).get(field);
      return n == null || n.isNull() ? UNKNOWN : n.asText();
    } catch (JsonProcessingException e) {
      return UNKNOWN;
    }
  }
}
