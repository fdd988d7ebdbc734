package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.integer;
import static io.sf2loki.core.settings.Setting.path;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.util.List;

/**
 * Definitions of {@code state} and {@code coordinate}, SPEC §1.3: the app-only keys, and aliases of
 * the keys the state module's records define ({@link S3StoreSettings}, {@link GcsStoreSettings},
 * {@link LeaseSettings}), assembled into their groups.
 */
final class StateKeys {
  static final String DEFAULT_STATE_OBJECT = S3StoreSettings.DEFAULT_STATE_OBJECT;
  static final String DEFAULT_LEASE_OBJECT = S3StoreSettings.DEFAULT_LEASE_OBJECT;

  static final Setting STORE =
      choice("store", "file", List.of("file", "s3", "gcs"), "Checkpoint store.", "STATE-1");
  static final Setting MIN_WRITE_INTERVAL =
      duration("min_write_interval", null, "Least time between checkpoint writes.", "PIPE-9")
          .defaultText("0s for file, 1s for s3/gcs");
  static final Setting FILE_PATH =
      path("path", "/var/lib/sf2loki/state.json", "State file.", "STATE-2");
  // the store records own their keys (one definition each); aliased here for the groups
  static final Setting S3_BUCKET = S3StoreSettings.BUCKET;
  static final Setting S3_KEY = S3StoreSettings.KEY;
  static final Setting S3_REGION = S3StoreSettings.REGION;
  static final Setting S3_ENDPOINT_URL = S3StoreSettings.ENDPOINT_URL;
  static final Setting GCS_BUCKET = GcsStoreSettings.BUCKET;
  static final Setting GCS_OBJECT_NAME = GcsStoreSettings.OBJECT_NAME;
  static final Setting GCS_SERVICE_FILE = GcsStoreSettings.SERVICE_FILE;
  static final Setting GCS_ENDPOINT_URL = GcsStoreSettings.ENDPOINT_URL;
  static final Setting GCS_ANONYMOUS = GcsStoreSettings.ANONYMOUS;

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
  static final Setting PER_ORG =
      bool(
          "per_org",
          false,
          "One lease, term and checkpoint document per org, so replicas share the orgs (needs"
              + " orgs[] and file_lease or k8s_lease).",
          "HA-27, HA-29, CFG-43, STATE-19");
  static final Setting MAX_ORGS_PER_REPLICA =
      integer(
              "max_orgs_per_replica",
              0,
              "Most orgs one replica leads with per_org; 0 = unlimited.",
              "HA-28, CFG-44")
          .atLeast(0);
  static final Setting TTL = LeaseSettings.TTL;
  static final Setting RENEW_INTERVAL = LeaseSettings.RENEW_INTERVAL;
  static final Setting HOLDER_ID = LeaseSettings.HOLDER_ID;
  static final Setting FL_PATH =
      path("path", "/var/lib/sf2loki/leader.lease", "Lease file.", "HA-2");
  static final Setting K8S_NAMESPACE = string("namespace", "default", "Lease namespace.", "HA-3");
  static final Setting K8S_NAME = string("name", "sf2loki-leader", "Lease name.", "HA-3");
  static final Setting K8S_IDENTITY = LeaseSettings.IDENTITY;
  static final Setting K8S_LEASE_DURATION = LeaseSettings.LEASE_DURATION;
  static final Setting K8S_KUBECONFIG =
      path("kubeconfig", null, "Kubeconfig; absent = in-cluster configuration.", "HA-3");
  static final Setting S3L_BUCKET = S3StoreSettings.LEASE_BUCKET;
  static final Setting S3L_KEY = S3StoreSettings.LEASE_KEY;
  static final Setting GCSL_BUCKET = GcsStoreSettings.LEASE_BUCKET;
  static final Setting GCSL_OBJECT_NAME = GcsStoreSettings.LEASE_OBJECT_NAME;

  static final Group COORDINATE =
      Group.object(
              "coordinate",
              "Leader election (HA).",
              "HA-1",
              List.of(TYPE, PER_ORG, MAX_ORGS_PER_REPLICA))
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
