package io.sf2loki.sim.elf;

import de.siegmar.fastcsv.writer.CsvWriter;
import io.sf2loki.sim.org.LogFileBody;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A {@link LogFileBody} whose CSV (header + {@link #rowCount()} rows of an {@link ElfRowGenerator})
 * is produced on the fly while it is read: a 1 GiB file never sits in memory. {@link #length()} is
 * computed by one counting pass on first use and then cached.
 */
public final class GeneratedLogFile implements LogFileBody {
  private static final int CHUNK_BYTES = 64 * 1024;

  private final ElfRowGenerator generator;
  private final long rows;
  private final AtomicLong length = new AtomicLong(-1);
  private volatile String id;

  /**
   * @param generator the row source
   * @param rows number of data rows ({@code >= 0})
   */
  public GeneratedLogFile(ElfRowGenerator generator, long rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("rows must be >= 0");
    }
    this.generator = generator;
    this.rows = rows;
  }

  /** Called by the org when the file is registered. */
  public void assignId(String id) {
    this.id = id;
  }

  /** The EventLogFile Id, once registered with a {@link io.sf2loki.sim.org.SimOrg}. */
  public String id() {
    return id;
  }

  /** The generator, to recompute any row. */
  public ElfRowGenerator generator() {
    return generator;
  }

  /** Number of data rows (header excluded). */
  public long rowCount() {
    return rows;
  }

  /** The data rows the file contains, recomputed lazily (header excluded). */
  public Stream<List<String>> expectedRows() {
    return generator.rows(rows);
  }

  @Override
  public long length() {
    long l = length.get();
    if (l >= 0) {
      return l;
    }
    long n = 0;
    try (InputStream in = open()) {
      byte[] buf = new byte[CHUNK_BYTES];
      int r;
      while ((r = in.read(buf)) >= 0) {
        n += r;
      }
    } catch (IOException e) {
      throw new IllegalStateException("generator failed", e);
    }
    length.set(n);
    return n;
  }

  @Override
  public boolean lengthKnown() {
    return length.get() >= 0;
  }

  @Override
  public InputStream open() {
    return new Stream_();
  }

  /** Pull-based stream: refills a small buffer with the next rows when it runs dry. */
  private final class Stream_ extends InputStream {
    private final Buffer buf = new Buffer();
    private final CsvWriter csv =
        ElfRowGenerator.csvWriterBuilder().build(buf, StandardCharsets.UTF_8);
    private long next = -1; // -1 = header
    private int pos;

    @Override
    public int read() throws IOException {
      if (!fill()) {
        return -1;
      }
      return buf.array()[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (!fill()) {
        return -1;
      }
      int n = Math.min(len, buf.size() - pos);
      System.arraycopy(buf.array(), pos, b, off, n);
      pos += n;
      return n;
    }

    private boolean fill() throws IOException {
      while (pos >= buf.size()) {
        if (next >= rows) {
          return false;
        }
        buf.reset();
        pos = 0;
        if (next < 0) {
          csv.writeRecord(generator.header());
          next = 0;
        }
        while (next < rows && buf.size() < CHUNK_BYTES) {
          csv.writeRecord(generator.row(next++));
          if ((next & 15) == 0) {
            csv.flush();
          }
        }
        csv.flush();
      }
      return true;
    }
  }

  private static final class Buffer extends ByteArrayOutputStream {
    Buffer() {
      super(CHUNK_BYTES + 8192);
    }

    byte[] array() {
      return buf;
    }
  }
}
