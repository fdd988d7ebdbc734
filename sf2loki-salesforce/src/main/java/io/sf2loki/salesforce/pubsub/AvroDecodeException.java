package io.sf2loki.salesforce.pubsub;

/**
 * A Pub/Sub event payload could not be decoded with its writer schema (SPEC PS-4, PS-6): the bytes
 * are truncated, malformed, or leave bytes over after the record. Never a partial result. The
 * simple class name is the {@code reason} of {@code sf2loki_decode_errors} (PS-6). Messages name
 * the schema and the problem, never payload content.
 */
public final class AvroDecodeException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message and the underlying cause (may be null). */
  public AvroDecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
