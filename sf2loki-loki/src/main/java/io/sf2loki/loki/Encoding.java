package io.sf2loki.loki;

/** The push body format, {@code sink.loki.encoding} (SPEC SINK-4, SINK-5). */
public enum Encoding {
  /** {@code logproto.PushRequest}, always snappy block-compressed (SINK-4, CFG-23). */
  PROTOBUF,
  /** Loki's JSON push format (SINK-5). */
  JSON
}
