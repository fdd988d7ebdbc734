package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import java.util.Base64;
import java.util.Objects;

/**
 * Where a topic's next {@code Subscribe} call starts (SPEC PS-11, PS-13): a preset and, for CUSTOM,
 * the opaque replay-id bytes (never converted to or from a number).
 *
 * @param preset LATEST, EARLIEST or CUSTOM
 * @param replayId the replay id bytes (empty unless CUSTOM)
 */
public record ReplayPosition(ReplayPreset preset, ByteString replayId) {
  public ReplayPosition {
    Objects.requireNonNull(preset, "preset");
    replayId = replayId == null ? ByteString.EMPTY : replayId;
  }

  /** A preset start without replay id. */
  public static ReplayPosition of(ReplayPreset preset) {
    return new ReplayPosition(preset, ByteString.EMPTY);
  }

  /** CUSTOM after {@code replayId}. */
  public static ReplayPosition after(ByteString replayId) {
    return new ReplayPosition(ReplayPreset.CUSTOM, replayId);
  }

  /** PS-15 "resuming": preset CUSTOM with a non-empty id. */
  public boolean resuming() {
    return preset == ReplayPreset.CUSTOM && !replayId.isEmpty();
  }

  /** Standard base64 with padding of the id (SRC-15 checkpoint value). */
  public String base64() {
    return base64(replayId);
  }

  /** Standard base64 with padding of opaque bytes (SRC-15). */
  public static String base64(ByteString bytes) {
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  @Override
  public String toString() {
    return replayId.isEmpty() ? preset.name() : preset.name() + "(" + base64() + ")";
  }
}
