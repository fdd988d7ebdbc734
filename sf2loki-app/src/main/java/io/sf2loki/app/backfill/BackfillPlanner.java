package io.sf2loki.app.backfill;

import io.sf2loki.salesforce.elf.ElfFiles;
import io.sf2loki.salesforce.elf.ElfFiles.ListedFile;
import io.sf2loki.salesforce.rest.SoqlException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The BF-5 listing loop for one type: pages of the ELF-5 query from the cursor's {@code
 * last_created} (or {@code --since}), in (CreatedDate, Id) order, up to the first file with
 * CreatedDate ≥ until, without the files of {@code done_ids}. Lists the whole range before anything
 * is downloaded, so the dry run (FEAT-4) and the progress totals see exactly what the run will do.
 */
final class BackfillPlanner {
  private static final Logger log = LoggerFactory.getLogger(BackfillPlanner.class);

  private final ElfFiles files;
  private final Instant since;
  private final Instant until;

  /**
   * What one type will ingest.
   *
   * @param type the EventType
   * @param files the files to process, in listing order
   * @param listingCalls SOQL calls made to list them
   * @param failure why listing failed or gave up (the type then fails), or null
   */
  record TypePlan(String type, List<ListedFile> files, int listingCalls, String failure) {
    TypePlan {
      files = List.copyOf(files);
    }

    /** Σ {@code LogFileLength} of the files. */
    long bytes() {
      return files.stream().mapToLong(ListedFile::lengthBytes).sum();
    }
  }

  BackfillPlanner(ElfFiles files, Instant since, Instant until) {
    this.files = Objects.requireNonNull(files);
    this.since = Objects.requireNonNull(since);
    this.until = Objects.requireNonNull(until);
  }

  /** {@code YYYY-MM-DDTHH:MM:SSZ} of an instant (BF-5 literal form). */
  static String literal(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  /** Lists one type (BF-5); a listing error or a stuck cursor yields a failed plan. */
  TypePlan plan(String type, Optional<BackfillCursor> cursor) throws InterruptedException {
    String pageSince = cursor.map(BackfillCursor::lastCreated).orElse(literal(since));
    List<ListedFile> out = new ArrayList<>();
    Set<String> listed = new HashSet<>();
    int calls = 0;
    while (true) {
      List<ListedFile> page;
      try {
        calls++;
        page = files.listPage(type, pageSince);
      } catch (SoqlException e) {
        log.atError()
            .addKeyValue("event_type", type)
            .addKeyValue("status", e.status())
            .addKeyValue("error", e.getMessage())
            .log("backfill listing failed; moving to the next type");
        return new TypePlan(type, out, calls, "listing: " + e.getMessage());
      }
      boolean progressed = false;
      boolean end = page.size() < files.pageSize();
      for (ListedFile f : page) {
        if (f.createdAt() != null && !f.createdAt().isBefore(until)) {
          end = true;
          break;
        }
        if (cursor.isPresent() && cursor.get().isDone(f.id(), f.createdDate())) {
          continue;
        }
        if (!listed.add(f.id())) {
          continue;
        }
        if (f.createdAt() != null && f.createdAt().isBefore(since)) {
          continue;
        }
        out.add(f);
        progressed = true;
      }
      if (end || page.isEmpty()) {
        return new TypePlan(type, out, calls, null);
      }
      String last = page.getLast().createdDate();
      if (!progressed && Objects.equals(last, pageSince)) {
        log.atWarn()
            .addKeyValue("event_type", type)
            .addKeyValue("created_date", last)
            .addKeyValue("page_size", files.pageSize())
            .log(
                "backfill gives up on the type: more than page_size files share one CreatedDate"
                    + " and the cursor cannot move (BF-5)");
        return new TypePlan(
            type, out, calls, "more than " + files.pageSize() + " files share CreatedDate " + last);
      }
      pageSince = last;
    }
  }
}
