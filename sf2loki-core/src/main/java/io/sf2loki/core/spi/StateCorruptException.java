package io.sf2loki.core.spi;

/**
 * The stored checkpoint document is unreadable: invalid UTF-8, invalid JSON or not an object (SPEC
 * STATE-3). Startup fails with exit 2; the file is never overwritten.
 */
public class StateCorruptException extends StateException {
  public StateCorruptException(String message, Throwable cause) {
    super(message, cause);
  }
}
