package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.path;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.state.gcs.GcsStoreSettings;
import java.time.Duration;
import java.util.List;

/** Definitions of {@code state} and {@code coordinate}, SPEC §1.3. */
final class StateKeys {
  static final String DEFAULT_STATE_OBJECT = "sf2loki/state.json";
  static final String DEFAULT_LEASE_OBJECT = "sf2loki/leader.lease";

  static final Setting STORE =
      choice("store", "file", List.of("file", "s3", "gcs"), "Checkpoint store.", "STATE-1");
  static final Setting MIN_WRITE_INTERVAL =
      duration("min_write_interval", null, "Least time between checkpoint writes.", "PIPE-9")
          .defaultText("0s for file, 1s for s3/gcs");
  static final Setting FILE_PATH =
      path("path", "/var/lib/sf2loki/state.json", "State file.", "STATE-2");
  static final Setting S3_BUCKET = string("bucket", "", "Bucket; required for store s3.", "CFG-22");
  static final Setting S3_KEY = string("key", DEFAULT_STATE_OBJECT, "Object key.", "STATE-8");
  static final Setting S3_REGION =
      string("region", null, "Region; absent = default AWS provider chain.", "STATE-8");
  static final Setting S3_ENDPOINT_URL =
      string("endpoint_url", null, "S3-compatible endpoint (MinIO, R2, Ceph).", "STATE-8");
  static final Setting GCS_BUCKET =
      string("bucket", "", "Bucket; required for store gcs.", "CFG-22");
  static final Setting GCS_OBJECT_NAME =
      string("object_name", DEFAULT_STATE_OBJECT, "Object name.", "STATE-15");
  static final Setting GCS_SERVICE_FILE =
      path(
          "service_file",
          null,
          "Service-account JSON; absent = Application Default Credentials.",
          "STATE-15");
  static final Setting GCS_ENDPOINT_URL =
      string("endpoint_url", null, "JSON API root (emulators, private endpoints).", "STATE-15")
          .defaultText(GcsStoreSettings.DEFAULT_ENDPOINT);
  static final Setting GCS_ANONYMOUS =
      bool("anonymous", false, "Send no credentials (emulators only).", "STATE-15");

  static final Group STATE =
      Group.object("state", "Checkpoint store.", "STATE-1", List.of(STORE, MIN_WRITE_INTERVAL))
          .with(
              Group.object("file", "File store.", "STATE-2", List.of(FILE_PATH)),
              Group.object(
                  "s3",
                  "S3 store.",
                  "STATE-8",
                  List.of(S3_BUCKET, S3_KEY, S3_REGION, S3_ENDPOINT_URL)),
              Group.object(
                  "gcs",
                  "GCS store.",
                  "STATE-15",
                  List.of(
                      GCS_BUCKET,
                      GCS_OBJECT_NAME,
                      GCS_SERVICE_FILE,
                      GCS_ENDPOINT_URL,
                      GCS_ANONYMOUS)));

  // ---- coordinate ----
  static final Setting TYPE =
      choice(
          "type",
          "noop",
          List.of("noop", "file_lease", "k8s_lease", "s3_lease", "gcs_lease"),
          "Leader election.",
          "HA-1");
  static final Setting TTL =
      duration("ttl", Duration.ofSeconds(30), "Lease lifetime.", "CFG-21").greaterThan(0);
  static final Setting RENEW_INTERVAL =
      duration("renew_interval", Duration.ofSeconds(10), "Time between renewals.", "CFG-21")
          .greaterThan(0);
  static final Setting HOLDER_ID =
      string("holder_id", "", "Holder name; empty = <hostname>-<pid>.", "HA-2")
          .defaultText("<hostname>-<pid>");
  static final Setting FL_PATH =
      path("path", "/var/lib/sf2loki/leader.lease", "Lease file.", "HA-2");
  static final Setting K8S_NAMESPACE = string("namespace", "default", "Lease namespace.", "HA-3");
  static final Setting K8S_NAME = string("name", "sf2loki-leader", "Lease name.", "HA-3");
  static final Setting K8S_IDENTITY =
      string("identity", "", "Holder identity; empty = $HOSTNAME, else <hostname>-<pid>.", "HA-3")
          .defaultText("$HOSTNAME");
  static final Setting K8S_LEASE_DURATION =
      duration("lease_duration", Duration.ofSeconds(30), "Lease lifetime.", "CFG-21")
          .greaterThan(0);
  static final Setting K8S_KUBECONFIG =
      path("kubeconfig", null, "Kubeconfig; absent = in-cluster configuration.", "HA-3");
  static final Setting S3L_BUCKET =
      string("bucket", "", "Bucket; required for s3_lease.", "CFG-29, CFG-31");
  static final Setting S3L_KEY = string("key", DEFAULT_LEASE_OBJECT, "Lease object key.", "CFG-29");
  static final Setting GCSL_BUCKET =
      string("bucket", "", "Bucket; required for gcs_lease.", "CFG-30, CFG-31");
  static final Setting GCSL_OBJECT_NAME =
      string("object_name", DEFAULT_LEASE_OBJECT, "Lease object name.", "CFG-30");

  static final Group COORDINATE =
      Group.object("coordinate", "Leader election (HA).", "HA-1", List.of(TYPE))
          .with(
              Group.object(
                  "file_lease",
                  "Lease in a shared file.",
                  "HA-2",
                  List.of(FL_PATH, TTL, RENEW_INTERVAL, HOLDER_ID)),
              Group.object(
                  "k8s_lease",
                  "Kubernetes coordination.k8s.io Lease.",
                  "HA-3",
                  List.of(
                      K8S_NAMESPACE,
                      K8S_NAME,
                      K8S_IDENTITY,
                      K8S_LEASE_DURATION,
                      RENEW_INTERVAL,
                      K8S_KUBECONFIG)),
              Group.object(
                  "s3_lease",
                  "Lease object in S3.",
                  "CFG-29",
                  List.of(
                      S3L_BUCKET,
                      S3L_KEY,
                      S3_REGION,
                      S3_ENDPOINT_URL,
                      TTL,
                      RENEW_INTERVAL,
                      HOLDER_ID)),
              Group.object(
                  "gcs_lease",
                  "Lease object in GCS.",
                  "CFG-30",
                  List.of(
                      GCSL_BUCKET,
                      GCSL_OBJECT_NAME,
                      GCS_SERVICE_FILE,
                      GCS_ENDPOINT_URL,
                      GCS_ANONYMOUS,
                      TTL,
                      RENEW_INTERVAL,
                      HOLDER_ID)));

  private StateKeys() {}
}
