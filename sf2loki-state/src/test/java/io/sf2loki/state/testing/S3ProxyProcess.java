package io.sf2loki.state.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * s3proxy 4.1.0 ({@code jar-with-dependencies}, copied by the build to {@code
 * target/s3proxy/s3proxy.jar}) run as a separate JVM on a free loopback port, with the in-memory
 * {@code transient-nio2} blob store and no authorization (JAVA-STACK §2.10). It answers {@code
 * If-None-Match: *} / {@code If-Match} with real {@code 412 PreconditionFailed} bodies, so the
 * store's wire behaviour is real; it is <b>not</b> atomic under concurrent conditional writes
 * (several racers can win one round), so tests cover conflicts deterministically, never by racing.
 *
 * <p>{@link #stop()} and {@link #start()} may be repeated: the port stays the same, the content is
 * lost (transient store).
 */
public final class S3ProxyProcess implements AutoCloseable {
  /** Any credentials: {@code s3proxy.authorization=none} accepts every signature. */
  public static final AwsCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));

  private final Path dir;
  private final int port;
  private final boolean persistent;
  private Process process;

  private S3ProxyProcess(Path dir, int port, boolean persistent) {
    this.dir = dir;
    this.port = port;
    this.persistent = persistent;
  }

  /**
   * Starts s3proxy (in-memory) on a free loopback port; its log goes to {@code dir/s3proxy.log}.
   */
  public static S3ProxyProcess start(Path dir) throws IOException {
    return start(dir, false);
  }

  /**
   * @param persistent keep objects under {@code dir/data} ({@code filesystem-nio2}) so they survive
   *     {@link #stop()} / {@link #start()}, as a real bucket's do across an outage
   */
  public static S3ProxyProcess start(Path dir, boolean persistent) throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    S3ProxyProcess p = new S3ProxyProcess(dir, port, persistent);
    p.start();
    return p;
  }

  /** Path of the fat jar: {@code -Ds3proxy.jar=…}, else {@code target/s3proxy/s3proxy.jar}. */
  public static Path jar() {
    Path jar = Path.of(System.getProperty("s3proxy.jar", "target/s3proxy/s3proxy.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar.toAbsolutePath()
              + " missing: the module's build copies it (maven-dependency-plugin)");
    }
    return jar;
  }

  /** (Re)starts the process on this instance's port and waits until it accepts connections. */
  public synchronized void start() throws IOException {
    if (process != null && process.isAlive()) {
      return;
    }
    Files.createDirectories(dir.resolve("data"));
    Path props = dir.resolve("s3proxy.properties");
    Files.writeString(
        props,
        String.join(
            "\n",
            "s3proxy.endpoint=http://127.0.0.1:" + port,
            "s3proxy.authorization=none",
            persistent ? "jclouds.provider=filesystem-nio2" : "jclouds.provider=transient-nio2",
            "jclouds.filesystem.basedir=" + dir.resolve("data").toAbsolutePath(),
            "jclouds.identity=local",
            "jclouds.credential=local",
            ""));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    process =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Xmx256m",
                    "-XX:TieredStopAtLevel=1",
                    "-jar",
                    jar().toAbsolutePath().toString(),
                    "--properties",
                    props.toString()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("s3proxy.log").toFile()))
            .start();
    Process p = process;
    Awaitility.await("s3proxy accepting on port " + port + " (log in " + dir + ")")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              if (!p.isAlive()) {
                throw new IOException("s3proxy exited " + p.exitValue() + "; see " + dir);
              }
              return accepts();
            });
  }

  private boolean accepts() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills the process (its content is lost) and waits for it to exit. */
  public synchronized void stop() throws InterruptedException {
    if (process == null) {
      return;
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    process = null;
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** A plain SDK client on this proxy (path style), for arranging and inspecting objects. */
  public S3Client client() {
    return S3Client.builder()
        .endpointOverride(endpoint())
        .forcePathStyle(true)
        .region(Region.US_EAST_1)
        .credentialsProvider(CREDENTIALS)
        .build();
  }

  /** Creates a bucket. */
  public void createBucket(String bucket) {
    try (S3Client c = client()) {
      c.createBucket(b -> b.bucket(bucket));
    }
  }

  /** Puts an object unconditionally (an operator's edit, a second writer, a corrupt object). */
  public void put(String bucket, String key, String body) {
    try (S3Client c = client()) {
      c.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(body));
    }
  }

  /** The object's content as UTF-8. */
  public String get(String bucket, String key) {
    try (S3Client c = client()) {
      return c.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
