package io.sf2loki.salesforce.elf;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.elf.ElfFileProcessor.FileRef;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import io.sf2loki.salesforce.source.StoredCursors;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One type's turn in a cycle (SPEC ELF-4…ELF-7, ELF-13, SRC-19): loads its cursor at its first
 * cycle, lists its new files (ELF-5), processes the settled ones in order through the {@link
 * ElfFileProcessor} until one fails or throttles, and makes sure an emitted entry carries the final
 * cursor (ELF-13). Runs on a cycle worker; one type at a time per {@link ElfType}.
 */
final class ElfTypeRun {
  private static final Logger log = LoggerFactory.getLogger(EventLogFileSource.class);
  private static final String SOURCE = RowShaper.SOURCE;

  private final EventLogFileSettings settings;
  private final ElfListing listing;
  private final StoredCursors cursors;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final ElfFileProcessor files;
  private final ElfCursorCodec codec = new ElfCursorCodec();

  ElfTypeRun(
      EventLogFileSettings settings,
      ElfListing listing,
      StoredCursors cursors,
      Sf2lokiMetrics metrics,
      TimeSource time,
      ElfFileProcessor files) {
    this.settings = settings;
    this.listing = listing;
    this.cursors = cursors;
    this.metrics = metrics;
    this.time = time;
    this.files = files;
  }

  /**
   * Processes one type for this cycle.
   *
   * @return number of files the cursor moved past
   */
  int process(ElfType t, ElfCycle c) throws CycleStoppedException, InterruptedException {
    if (t.cursor == null) {
      t.cursor = loadCursor(t, c.serverNow());
    }
    final ElfCursor start = t.cursor;
    Optional<List<Map<String, Object>>> listed = list(t, c);
    if (listed.isEmpty()) {
      return 0;
    }
    Files done = processFiles(t, listed.get(), c);
    // ELF-13: the final cursor must be carried by some emitted entry
    if (!t.cursor.equals(start)) {
      String value = t.cursor.toValue();
      if (!value.equals(done.lastCarried)) {
        c.put(LogEntry.checkpointOnly(new CheckpointToken(t.key, value)));
      }
    }
    if (t.cursor.window().size() > ElfCursor.WARN_SIZE) {
      log.atWarn()
          .addKeyValue("event_type", t.name)
          .addKeyValue("window_size", t.cursor.window().size())
          .log("eventlogfile id window exceeds 5000 entries");
    }
    if (done.clean) {
      c.reporter().ok(t.key);
      t.failures.reset();
      metrics.sourceLastSuccessTimestampSeconds.set(
          time.now().toEpochMilli() / 1000.0, t.objectAttrs);
    }
    return done.count;
  }

  /** The files a type's run went through. */
  private static final class Files {
    String lastCarried;
    int count;
    boolean clean = true;
  }

  /** ELF-5 listing; empty after a failure (reported, counted, logged; SRC-19). */
  private Optional<List<Map<String, Object>>> list(ElfType t, ElfCycle c)
      throws InterruptedException {
    try {
      return Optional.of(listing.list(t.name, t.cursor.lastCreated()));
    } catch (SoqlThrottledException e) {
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("event_type", t.name)
          .addKeyValue("error", c.reporter().redact(e.getMessage()))
          .log("eventlogfile listing throttled (REQUEST_LIMIT_EXCEEDED); cycle marked throttled");
      c.handoff().markThrottled();
      c.reporter().failed(t.key, e);
      return Optional.empty();
    } catch (SoqlException e) {
      metrics.soqlPollErrors.add(1, t.objectAttrs);
      metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, "listing"));
      t.failures
          .pollFailed(log, SOURCE, t.name, e, c.reporter())
          .log("eventlogfile listing failed");
      c.reporter().failed(t.key, e);
      return Optional.empty();
    }
  }

  /** The listed files in order until one is not settled (ELF-7), fails or throttles. */
  private Files processFiles(ElfType t, List<Map<String, Object>> listed, ElfCycle c)
      throws CycleStoppedException, InterruptedException {
    Files done = new Files();
    for (Map<String, Object> rec : listed) {
      String id = str(rec.get("Id"));
      String created = str(rec.get("CreatedDate"));
      if (id == null || created == null) {
        log.atWarn()
            .addKeyValue("source", SOURCE)
            .addKeyValue("event_type", t.name)
            .addKeyValue("file_id", id)
            .log("eventlogfile listing record without Id or CreatedDate skipped");
        continue;
      }
      if (t.cursor.alreadyProcessed(id, created)) {
        continue;
      }
      Optional<Instant> createdAt = SalesforceTimestamps.parse(created);
      if (!settled(createdAt, c.serverNow())) {
        log.atDebug()
            .addKeyValue("event_type", t.name)
            .addKeyValue("file_id", id)
            .addKeyValue("created_date", created)
            .log("eventlogfile file not settled yet; waiting");
        break; // ELF-7: later files are no older
      }
      FileRef file = new FileRef(t, id, created, createdAt.orElse(null), rec);
      ElfFileProcessor.Result r = files.process(t, file, c);
      switch (r.outcome()) {
        case DONE, ABANDONED -> {
          t.cursor = file.advanced;
          done.count++;
          if (r.carriedAdvanced()) {
            done.lastCarried = file.advancedToken.value();
          }
        }
        case ZERO_ROWS -> {}
        case THROTTLED -> {
          c.handoff().markThrottled();
          done.clean = false;
        }
        case STOP_TYPE -> done.clean = false;
      }
      if (!done.clean) {
        break;
      }
    }
    return done;
  }

  /** ELF-7: a file younger than {@code settle_window} is not processed yet. */
  private boolean settled(Optional<Instant> createdAt, Instant serverNow) {
    return settings.settleWindow().isZero()
        || createdAt.isEmpty()
        || Duration.between(createdAt.get(), serverNow).compareTo(settings.settleWindow()) >= 0;
  }

  /** ELF-4: absent or unusable → the lookback window (SRC-12). */
  private ElfCursor loadCursor(ElfType t, Instant serverNow) {
    String def = SalesforceTimestamps.defaultSince(serverNow.minus(settings.lookback()));
    return cursors.load(
        log,
        SOURCE,
        t.key,
        codec.withDefault(def),
        new ElfCursor(def, List.of()),
        def,
        "eventlogfile checkpoint unreadable; starting from the lookback window");
  }

  private static String str(Object v) {
    return v == null ? null : String.valueOf(v);
  }
}
