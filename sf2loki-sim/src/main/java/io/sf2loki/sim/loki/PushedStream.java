package io.sf2loki.sim.loki;

import java.util.List;

/**
 * One decoded stream of a push body.
 *
 * @param labels the label string as sent (protobuf {@code StreamAdapter.labels}) or, for JSON,
 *     rendered as {@code {k="v", ...}} from the {@code stream} object
 * @param entries entries in body order
 */
public record PushedStream(String labels, List<PushedEntry> entries) {
  public PushedStream {
    entries = List.copyOf(entries);
  }
}
