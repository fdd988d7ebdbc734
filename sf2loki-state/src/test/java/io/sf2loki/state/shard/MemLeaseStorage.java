package io.sf2loki.state.shard;

import io.sf2loki.state.lease.LeaseConflictException;
import io.sf2loki.state.lease.LeaseDocument;
import io.sf2loki.state.lease.LeaseRead;
import io.sf2loki.state.lease.LeaseStorage;
import java.util.Objects;

/** An in-memory lease document with compare-and-swap on a version counter. Thread-safe. */
final class MemLeaseStorage implements LeaseStorage {
  private final String name;
  private byte[] body;
  private long version;

  MemLeaseStorage(String name) {
    this.name = name;
  }

  @Override
  public synchronized LeaseRead read() {
    if (body == null) {
      return LeaseRead.absent(null);
    }
    String v = Long.toString(version);
    return LeaseDocument.parse(body)
        .map(d -> LeaseRead.present(d, v))
        .orElseGet(() -> LeaseRead.absent(v));
  }

  @Override
  public synchronized String write(byte[] b, String expectedVersion) {
    String current = body == null ? null : Long.toString(version);
    if (!Objects.equals(current, expectedVersion)) {
      throw new LeaseConflictException("precondition failed on " + name, null);
    }
    body = b.clone();
    version++;
    return Long.toString(version);
  }

  synchronized LeaseDocument current() {
    return body == null ? null : LeaseDocument.parse(body).orElse(null);
  }

  @Override
  public String describe() {
    return name;
  }

  @Override
  public void close() {}
}
