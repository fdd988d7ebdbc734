package io.sf2loki.core.spi;

/** The file store's exclusive lock is held by another process (SPEC STATE-5). */
public class StateLockException extends StateException {
  public StateLockException(String message, Throwable cause) {
    super(message, cause);
  }
}
