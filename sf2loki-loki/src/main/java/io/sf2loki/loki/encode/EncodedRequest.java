package io.sf2loki.loki.encode;

/**
 * One encoded Loki push request body.
 *
 * @param body the request body exactly as sent (already compressed when {@code contentEncoding} is
 *     set, and for protobuf always snappy block format)
 * @param contentType {@code application/x-protobuf} or {@code application/json}
 * @param contentEncoding {@code snappy}, {@code gzip}, or null for no {@code Content-Encoding}
 *     header
 * @param entryCount number of entries encoded
 */
public record EncodedRequest(
    byte[] body, String contentType, String contentEncoding, int entryCount) {}
