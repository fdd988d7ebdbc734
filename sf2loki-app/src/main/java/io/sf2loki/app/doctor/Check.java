package io.sf2loki.app.doctor;

import java.util.Objects;

/**
 * One row of the doctor report (SPEC DOC-1): {@code name}, {@code status}, {@code detail}. Details
 * never contain secrets and URLs in them are scrubbed (DOC-3, OBS-11).
 *
 * @param name e.g. {@code auth}, {@code pubsub:/event/LoginEventStream}
 * @param status the outcome
 * @param detail one line for people; FAIL rows carry the operator's hint
 */
public record Check(String name, Status status, String detail) {
  /** DOC-1 statuses. */
  public enum Status {
    PASS,
    WARN,
    FAIL,
    SKIP
  }

  public Check {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
    detail = detail == null ? "" : detail.replace('\n', ' ').replace('\r', ' ');
  }

  static Check pass(String name, String detail) {
    return new Check(name, Status.PASS, detail);
  }

  static Check warn(String name, String detail) {
    return new Check(name, Status.WARN, detail);
  }

  static Check fail(String name, String detail) {
    return new Check(name, Status.FAIL, detail);
  }

  static Check skip(String name, String detail) {
    return new Check(name, Status.SKIP, detail);
  }
}
