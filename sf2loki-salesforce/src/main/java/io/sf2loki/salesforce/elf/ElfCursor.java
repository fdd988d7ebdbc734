package io.sf2loki.salesforce.elf;

import io.sf2loki.core.shape.CanonicalJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The cursor of one EventLogFile type (SPEC SRC-15, ELF-4, ELF-6, ELF-11): the raw CreatedDate of
 * the newest processed file plus an id window of recently processed files. Immutable.
 *
 * <p>Canonical value (SRC-7): {@code {"ids": [["<fileId>", "<CreatedDate>"], …], "last_created":
 * "<CreatedDate>"}}; legacy window entries (bare Id strings, {@link WindowEntry#createdDate()}
 * null) are written back as bare strings.
 *
 * @param lastCreated raw Salesforce timestamp, exactly as received (SRC-16)
 * @param window processed files, oldest first
 */
public record ElfCursor(String lastCreated, List<WindowEntry> window) {
  /** Pairs older than {@code last_created} kept by window maintenance (ELF-11). */
  static final int KEEP_OLDER = 200;

  /** Window size above which a WARN is logged (ELF-11). */
  static final int WARN_SIZE = 5000;

  /**
   * One processed file.
   *
   * @param id EventLogFile Id
   * @param createdDate raw CreatedDate, or null for a legacy entry (matches any CreatedDate)
   */
  public record WindowEntry(String id, String createdDate) {
    public WindowEntry {
      Objects.requireNonNull(id, "id");
    }

    /** Whether this is a legacy bare-Id entry. */
    public boolean legacy() {
      return createdDate == null;
    }
  }

  public ElfCursor {
    Objects.requireNonNull(lastCreated, "lastCreated");
    window = List.copyOf(window);
  }

  /**
   * ELF-6: whether a listed file was already processed: its Id is in the window AND (the entry is
   * legacy, or has the same CreatedDate string, or the listed CreatedDate is not later than the
   * recorded one). A known Id with a later CreatedDate (regenerated file) is not skipped.
   */
  public boolean alreadyProcessed(String id, String createdDate) {
    for (WindowEntry e : window) {
      if (!e.id().equals(id)) {
        continue;
      }
      if (e.legacy() || e.createdDate().equals(createdDate)) {
        return true;
      }
      Optional<Instant> listed = SalesforceTimestamps.parse(createdDate);
      Optional<Instant> recorded = SalesforceTimestamps.parse(e.createdDate());
      if (listed.isPresent() && recorded.isPresent()) {
        if (!listed.get().isAfter(recorded.get())) {
          return true;
        }
      } else if (createdDate == null || createdDate.compareTo(e.createdDate()) <= 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * ELF-10/ELF-11: the cursor after processing (or abandoning) file {@code id}: {@code
   * last_created} = {@code createdDate}; any entry with the same Id removed, {@code (id,
   * createdDate)} appended; kept are every entry whose CreatedDate equals the new {@code
   * last_created} plus the {@value #KEEP_OLDER} most recent other entries.
   */
  public ElfCursor advance(String id, String createdDate) {
    List<WindowEntry> all = new ArrayList<>(window.size() + 1);
    for (WindowEntry e : window) {
      if (!e.id().equals(id)) {
        all.add(e);
      }
    }
    all.add(new WindowEntry(id, createdDate));
    int others = 0;
    for (WindowEntry e : all) {
      if (!createdDate.equals(e.createdDate())) {
        others++;
      }
    }
    int dropOthers = Math.max(0, others - KEEP_OLDER);
    List<WindowEntry> kept = new ArrayList<>(all.size());
    for (WindowEntry e : all) {
      if (!createdDate.equals(e.createdDate()) && dropOthers > 0) {
        dropOthers--;
        continue;
      }
      kept.add(e);
    }
    return new ElfCursor(createdDate, kept);
  }

  /** The checkpoint value, canonical JSON (SRC-7, SRC-15). */
  public String toValue() {
    List<Object> ids = new ArrayList<>(window.size());
    for (WindowEntry e : window) {
      ids.add(e.legacy() ? e.id() : List.of(e.id(), e.createdDate()));
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("ids", ids);
    doc.put("last_created", lastCreated);
    return CanonicalJson.write(doc);
  }
}
