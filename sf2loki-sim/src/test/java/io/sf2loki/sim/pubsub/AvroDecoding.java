package io.sf2loki.sim.pubsub;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/** Test-side decoding exactly as a client does it: GenericDatumReader with the writer schema. */
final class AvroDecoding {
  private AvroDecoding() {}

  static GenericRecord decode(Schema writer, byte[] payload) throws IOException {
    BinaryDecoder dec = DecoderFactory.get().binaryDecoder(payload, null);
    GenericRecord r = new GenericDatumReader<GenericRecord>(writer).read(null, dec);
    if (!dec.isEnd()) {
      throw new IOException("leftover bytes");
    }
    return r;
  }
}
