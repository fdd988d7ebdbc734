package io.sf2loki.salesforce.pubsub;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Parsed Avro writer schemas keyed by Pub/Sub {@code schema_id}, never by topic (SPEC PS-4): one
 * response may carry events written with different schema ids.
 *
 * <p>Entries live for the cache's lifetime (the process, PS-4); the map is unbounded, which is fine
 * because an org has few schema ids. The first {@link #get} of an id fetches it once even under
 * concurrent first use (single flight: other callers of the same id wait for that fetch); different
 * ids are fetched in parallel. A failed fetch or parse is not cached, so the next call retries.
 * Thread-safe.
 */
public final class SchemaCache {

  /** Fetches the schema JSON of a schema id, e.g. through {@code GetSchema} (PS-1). */
  @FunctionalInterface
  public interface Fetcher {
    /**
     * Returns {@code SchemaInfo.schema_json} for {@code schemaId}.
     *
     * @throws Exception any failure (transport, status); it ends the stream per PS-6
     */
    String fetchSchemaJson(String schemaId) throws Exception;
  }

  /** A schema could not be fetched or parsed (PS-6: the stream ends and reconnects). */
  public static final class SchemaFetchException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the exception naming the schema id. */
    public SchemaFetchException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final Fetcher fetcher;
  private final ConcurrentHashMap<String, CompletableFuture<Schema>> schemas =
      new ConcurrentHashMap<>();

  /** Creates an empty cache that loads missing ids with {@code fetcher}. */
  public SchemaCache(Fetcher fetcher) {
    this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
  }

  /**
   * Returns the parsed writer schema of {@code schemaId}, fetching and parsing it on first use.
   *
   * @throws SchemaFetchException when the fetch fails or the JSON is not a valid Avro schema
   * @throws InterruptedException when interrupted while waiting for another caller's fetch
   */
  public Schema get(String schemaId) throws SchemaFetchException, InterruptedException {
    CompletableFuture<Schema> mine = new CompletableFuture<>();
    CompletableFuture<Schema> existing = schemas.putIfAbsent(schemaId, mine);
    if (existing == null) {
      try {
        Schema schema = new Schema.Parser().parse(fetcher.fetchSchemaJson(schemaId));
        mine.complete(schema);
        return schema;
      } catch (InterruptedException e) {
        fail(schemaId, mine, e);
        throw e;
      } catch (SchemaParseException e) {
        fail(schemaId, mine, e);
        throw new SchemaFetchException("schema " + schemaId + " does not parse", e);
      } catch (Exception e) {
        fail(schemaId, mine, e);
        throw new SchemaFetchException(
            "schema " + schemaId + " cannot be fetched: " + e.getClass().getSimpleName(), e);
      }
    }
    try {
      return existing.get();
    } catch (ExecutionException e) {
      throw new SchemaFetchException(
          "schema " + schemaId + " cannot be fetched (concurrent fetch failed)", e.getCause());
    }
  }

  /**
   * The schema of {@code schemaId} if it is already fetched and parsed, without waiting or fetching
   * (the per-event fast path).
   *
   * @return the schema, or null when not cached yet (or a fetch is in flight or failed)
   */
  public Schema cached(String schemaId) {
    CompletableFuture<Schema> f = schemas.get(schemaId);
    return f != null && f.isDone() && !f.isCompletedExceptionally() ? f.join() : null;
  }

  /** Number of cached schemas (the value behind {@code sf2loki_schema_cache_size}, PS-4). */
  public int size() {
    return (int)
        schemas.values().stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).count();
  }

  private void fail(String schemaId, CompletableFuture<Schema> mine, Exception e) {
    schemas.remove(schemaId, mine);
    mine.completeExceptionally(e);
  }
}
