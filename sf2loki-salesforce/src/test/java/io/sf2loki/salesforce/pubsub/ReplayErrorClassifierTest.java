package io.sf2loki.salesforce.pubsub;

import static io.sf2loki.salesforce.pubsub.ReplayErrorClassifier.Action.FALLBACK;
import static io.sf2loki.salesforce.pubsub.ReplayErrorClassifier.Action.INVALID_ARGUMENT_KEEP_POSITION;
import static io.sf2loki.salesforce.pubsub.ReplayErrorClassifier.Action.LIKELY_CONFIGURATION_ERROR;
import static io.sf2loki.salesforce.pubsub.ReplayErrorClassifier.Action.REAUTHENTICATE;
import static io.sf2loki.salesforce.pubsub.ReplayErrorClassifier.Action.REJECTED_NOT_RESUMING;
import static io.sf2loki.salesforce.pubsub.ReplayErrorClassifier.Action.RETRY;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import io.grpc.Status;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReplayErrorClassifierTest {
  private static final String CORRUPTED =
      "sfdc.platform.eventbus.grpc.subscription.fetch.replayid.corrupted";
  private static final String VALIDATION =
      "SFDC.Platform.EventBus.GRPC.Subscription.Fetch.ReplayId.Validation.Failed";
  private static final String AUTH = "sfdc.platform.eventbus.grpc.service.auth.error";
  private static final String UNAVAILABLE = "sfdc.platform.eventbus.grpc.service.unavailable";

  static Stream<Arguments> table() {
    return Stream.of(
        // row 1: any status, resuming, replay code
        Arguments.of(
            "row1 INVALID_ARGUMENT",
            Status.Code.INVALID_ARGUMENT,
            List.of(CORRUPTED),
            true,
            FALLBACK),
        Arguments.of("row1 UNKNOWN", Status.Code.UNKNOWN, List.of(CORRUPTED), true, FALLBACK),
        Arguments.of(
            "row1 case-insensitive", Status.Code.INTERNAL, List.of(VALIDATION), true, FALLBACK),
        Arguments.of(
            "row1 other trailer",
            Status.Code.NOT_FOUND,
            List.of("x", "because " + CORRUPTED),
            true,
            FALLBACK),
        // row 2: replay code, not resuming
        Arguments.of(
            "row2", Status.Code.INVALID_ARGUMENT, List.of(CORRUPTED), false, REJECTED_NOT_RESUMING),
        Arguments.of(
            "row2 other status",
            Status.Code.UNKNOWN,
            List.of(VALIDATION),
            false,
            REJECTED_NOT_RESUMING),
        // row 3: auth
        Arguments.of("row3 status", Status.Code.UNAUTHENTICATED, List.of(), true, REAUTHENTICATE),
        Arguments.of(
            "row3 trailer", Status.Code.PERMISSION_DENIED, List.of(AUTH), false, REAUTHENTICATE),
        Arguments.of(
            "row3 beats INVALID_ARGUMENT",
            Status.Code.INVALID_ARGUMENT,
            List.of(AUTH),
            true,
            REAUTHENTICATE),
        // row 4: INVALID_ARGUMENT, resuming, no trailer
        Arguments.of("row4", Status.Code.INVALID_ARGUMENT, List.of(), true, FALLBACK),
        // row 5: INVALID_ARGUMENT, resuming, other trailer
        Arguments.of(
            "row5",
            Status.Code.INVALID_ARGUMENT,
            List.of(UNAVAILABLE),
            true,
            INVALID_ARGUMENT_KEEP_POSITION),
        // row 6: INVALID_ARGUMENT, not resuming
        Arguments.of(
            "row6 no trailer",
            Status.Code.INVALID_ARGUMENT,
            List.of(),
            false,
            LIKELY_CONFIGURATION_ERROR),
        Arguments.of(
            "row6 trailer",
            Status.Code.INVALID_ARGUMENT,
            List.of(UNAVAILABLE),
            false,
            LIKELY_CONFIGURATION_ERROR),
        // row 8: anything else
        Arguments.of(
            "row8 UNAVAILABLE", Status.Code.UNAVAILABLE, List.of(UNAVAILABLE), true, RETRY),
        Arguments.of("row8 INTERNAL no trailer", Status.Code.INTERNAL, List.of(), true, RETRY),
        Arguments.of("row8 CANCELLED", Status.Code.CANCELLED, List.of(), false, RETRY));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  @DisplayName("PS-15: first matching row of the classification table")
  void ps15Table(
      String row,
      Status.Code code,
      List<String> trailers,
      boolean resuming,
      ReplayErrorClassifier.Action expected) {
    assertThat(ReplayErrorClassifier.classify(code, trailers, resuming)).isEqualTo(expected);
  }

  @Test
  @DisplayName("PS-15: the trailer is error-code and every other non-grpc-* ASCII trailer")
  void ps15TrailerValuesSkipGrpcKeysAndBinary() {
    Metadata md = new Metadata();
    md.put(Metadata.Key.of("error-code", Metadata.ASCII_STRING_MARSHALLER), CORRUPTED);
    md.put(Metadata.Key.of("x-sfdc-detail", Metadata.ASCII_STRING_MARSHALLER), "detail");
    md.put(Metadata.Key.of("grpc-status-details", Metadata.ASCII_STRING_MARSHALLER), AUTH);
    md.put(Metadata.Key.of("blob-bin", Metadata.BINARY_BYTE_MARSHALLER), new byte[] {1});

    assertThat(ReplayErrorClassifier.trailerValues(md))
        .containsExactlyInAnyOrder(CORRUPTED, "detail");
    assertThat(ReplayErrorClassifier.trailerValues(null)).isEmpty();
  }

  @Test
  @DisplayName(
      "PS-15: a trailers-only rejection carries the merged content-type header; it is not a"
          + " trailer, so a bare INVALID_ARGUMENT while resuming still falls back (regression)")
  void ps15TrailersOnlyResponseHeadersAreNotTrailers() {
    Metadata md = new Metadata();
    md.put(Metadata.Key.of("content-type", Metadata.ASCII_STRING_MARSHALLER), "application/grpc");

    List<String> values = ReplayErrorClassifier.trailerValues(md);

    assertThat(values).isEmpty();
    assertThat(ReplayErrorClassifier.classify(Status.Code.INVALID_ARGUMENT, values, true))
        .isEqualTo(ReplayErrorClassifier.Action.FALLBACK);
  }

  @Test
  @DisplayName("PS-2/AUTH-6: UNAUTHENTICATED or an auth.error trailer is an auth error")
  void ps2AuthErrors() {
    assertThat(ReplayErrorClassifier.isAuthError(Status.Code.UNAUTHENTICATED, List.of())).isTrue();
    assertThat(ReplayErrorClassifier.isAuthError(Status.Code.UNKNOWN, List.of(AUTH))).isTrue();
    assertThat(ReplayErrorClassifier.isAuthError(Status.Code.UNKNOWN, List.of(UNAVAILABLE)))
        .isFalse();
  }
}
