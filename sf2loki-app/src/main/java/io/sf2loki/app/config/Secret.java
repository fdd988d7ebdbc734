package io.sf2loki.app.config;

import java.util.Objects;

/**
 * A secret configuration value (SPEC CFG-7): a private key, client secret, token or salt. {@link
 * #toString()} is always {@code ***}, so a secret cannot leak through logging or string
 * concatenation; call {@link #reveal()} only where the value is used (signing, a request header).
 */
public final class Secret {
  private final String value;

  /**
   * @param value the non-empty, already trimmed secret value
   */
  public Secret(String value) {
    this.value = Objects.requireNonNull(value, "value");
  }

  /** The secret itself. Never log it or put it in an exception message. */
  public String reveal() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret s && s.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return "***";
  }
}
