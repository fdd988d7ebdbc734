package io.sf2loki.core.spi;

/** Base of checkpoint-store failures (SPEC STATE). Messages never contain secrets. */
public class StateException extends RuntimeException {
  public StateException(String message) {
    super(message);
  }

  public StateException(String message, Throwable cause) {
    super(message, cause);
  }
}
