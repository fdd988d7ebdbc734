package io.sf2loki.state.s3;

import io.sf2loki.core.spi.StateException;
import io.sf2loki.state.object.ObjectBackend;
import io.sf2loki.state.object.PreconditionFailedException;
import io.sf2loki.state.object.TransientStoreException;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The checkpoint object on S3 or an S3-compatible service through the AWS SDK v2 sync client (SPEC
 * STATE-8, STATE-9). The SDK's own retries are off: {@link
 * io.sf2loki.state.object.ObjectCheckpointStore} retries per STATE-9. Checksums are computed only
 * where required, which S3-compatible services (R2, Ceph, older MinIO) accept.
 */
public final class S3Backend implements ObjectBackend {
  /** SPEC STATE-9: the S3 error codes retried. */
  static final Set<String> TRANSIENT_CODES =
      Set.of(
          "SlowDown",
          "InternalError",
          "InternalFailure",
          "ServiceUnavailable",
          "RequestTimeout",
          "RequestTimeTooSkewed",
          "Throttling",
          "ThrottlingException",
          "RequestLimitExceeded");

  private final S3StoreSettings settings;
  private final S3Client client;

  /** A client on the default AWS credential chain. */
  public S3Backend(S3StoreSettings settings) {
    this(settings, DefaultCredentialsProvider.builder().build());
  }

  /**
   * @param settings bucket, key, region, endpoint
   * @param credentials the credential provider (production: the default chain)
   * @throws StateException when no region can be determined
   */
  public S3Backend(S3StoreSettings settings, AwsCredentialsProvider credentials) {
    if (settings.bucket().isBlank()) {
      throw new IllegalArgumentException("s3 bucket must not be empty");
    }
    this.settings = settings;
    S3ClientBuilder b =
        S3Client.builder()
            .credentialsProvider(credentials)
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .overrideConfiguration(
                c ->
                    c.retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallAttemptTimeout(settings.attemptTimeout())
                        .apiCallTimeout(settings.attemptTimeout()));
    settings.region().ifPresent(r -> b.region(Region.of(r)));
    settings
        .endpointUrl()
        .ifPresent(
            u -> {
              b.endpointOverride(u).forcePathStyle(true);
              if (settings.region().isEmpty()) {
                b.region(Region.US_EAST_1);
              }
            });
    try {
      this.client = b.build();
    } catch (SdkClientException e) {
      throw new StateException(
          "cannot set up the S3 client for "
              + settings.describe()
              + " (set state.s3.region or AWS_REGION): "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public Optional<Stored> read() {
    GetObjectRequest req =
        GetObjectRequest.builder().bucket(settings.bucket()).key(settings.key()).build();
    try {
      ResponseBytes<GetObjectResponse> bytes = client.getObjectAsBytes(req);
      return Optional.of(new Stored(bytes.asByteArray(), bytes.response().eTag()));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      if (e.statusCode() == 404 && !"NoSuchBucket".equals(code(e))) {
        return Optional.empty();
      }
      throw classify("read", e);
    } catch (SdkClientException e) {
      throw new TransientStoreException("read of " + describe() + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public String write(byte[] body, String expectedVersion) {
    PutObjectRequest.Builder req =
        PutObjectRequest.builder()
            .bucket(settings.bucket())
            .key(settings.key())
            .contentType("application/json");
    if (expectedVersion == null) {
      req.ifNoneMatch("*");
    } else {
      req.ifMatch(expectedVersion);
    }
    try {
      return client.putObject(req.build(), RequestBody.fromBytes(body)).eTag();
    } catch (S3Exception e) {
      String code = code(e);
      if (e.statusCode() == 412
          || (e.statusCode() == 409 && "ConditionalRequestConflict".equals(code))
          || (e.statusCode() == 404 && expectedVersion != null && !"NoSuchBucket".equals(code))) {
        throw new PreconditionFailedException(
            "conditional write of "
                + describe()
                + " refused ("
                + e.statusCode()
                + " "
                + code
                + "): the object changed since it was read",
            e.statusCode());
      }
      throw classify("write", e);
    } catch (SdkClientException e) {
      throw new TransientStoreException("write of " + describe() + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void delete(String expectedVersion) {
    DeleteObjectRequest.Builder req =
        DeleteObjectRequest.builder().bucket(settings.bucket()).key(settings.key());
    if (expectedVersion != null) {
      req.ifMatch(expectedVersion);
    }
    try {
      client.deleteObject(req.build());
    } catch (S3Exception e) {
      if (e.statusCode() == 412) {
        throw new PreconditionFailedException(
            "conditional delete of " + describe() + " refused (412 " + code(e) + ")", 412);
      }
      throw classify("delete", e);
    } catch (SdkClientException e) {
      throw new TransientStoreException(
          "delete of " + describe() + " failed: " + e.getMessage(), e);
    }
  }

  private StateException classify(String op, S3Exception e) {
    String code = code(e);
    String msg = op + " of " + describe() + " failed: " + e.statusCode() + " " + code;
    if (e.statusCode() == 429 || e.statusCode() >= 500 || TRANSIENT_CODES.contains(code)) {
      return new TransientStoreException(msg, e);
    }
    return new StateException(msg + " (" + e.getMessage() + ")", e);
  }

  private static String code(S3Exception e) {
    return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
        ? ""
        : e.awsErrorDetails().errorCode();
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  @Override
  public void close() {
    client.close();
  }
}
