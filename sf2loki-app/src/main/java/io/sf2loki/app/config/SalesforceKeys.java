package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.number;
import static io.sf2loki.core.settings.Setting.secret;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import java.time.Duration;
import java.util.List;

/** Definitions of {@code salesforce} (also {@code orgs[].salesforce}), SPEC §1.3. */
final class SalesforceKeys {
  static final Setting LOGIN_URL =
      string("login_url", "", "OAuth host; empty = derived from environment.", "CFG-13")
          .defaultText("derived from environment");
  static final Setting ENVIRONMENT =
      choice(
          "environment",
          "production",
          List.of("production", "sandbox"),
          "Org kind; also the environment label.",
          "CFG-13");
  static final Setting AUTH_MODE =
      choice(
          "auth_mode",
          "jwt_bearer",
          List.of("jwt_bearer", "client_credentials"),
          "OAuth flow.",
          "AUTH-1");
  static final Setting CLIENT_ID =
      string("client_id", null, "Connected app consumer key.", "CFG-8")
          .mandatory()
          .example("3MVG9example.consumer.key");
  static final Setting CLIENT_SECRET =
      secret("client_secret", "Consumer secret; required for client_credentials.", "CFG-7, CFG-8");
  static final Setting USERNAME =
      string("username", "", "Integration user (JWT sub); required for jwt_bearer.", "CFG-8")
          .example("integration@example.com");
  static final Setting PRIVATE_KEY =
      secret("private_key", "PEM RSA private key; required for jwt_bearer.", "CFG-7, CFG-8")
          .example("/etc/sf2loki/secrets/private_key");
  static final Setting API_VERSION =
      string(
          "api_version", "60.0", "REST API version in /services/data/v{api_version}/.", "CFG-10");
  static final Setting ORG_ID =
      string("org_id", null, "15/18-char org id; absent = resolved via userinfo.", "AUTH-8");
  static final Setting JWT_AUDIENCE =
      string("jwt_audience", "", "JWT aud; empty = derived from environment.", "AUTH-3");
  static final Setting TOKEN_TTL =
      duration(
              "token_ttl",
              SalesforceAuthSettings.DEFAULT_TOKEN_TTL,
              "Access token lifetime assumed.",
              "CFG-14")
          .atLeast(300);
  static final Setting LIMITS_ENABLED =
      bool("enabled", false, "Poll org limits (sf2loki_salesforce_limit_*).", "OBS-12");
  static final Setting LIMITS_POLL_INTERVAL =
      duration("poll_interval", Duration.ofMinutes(5), "Time between limits polls.", "OBS-12")
          .greaterThan(0);
  static final Setting RESERVE_PERCENT =
      number(
              "reserve_percent",
              0,
              "API reserve: pause REST sources below this % of DailyApiRequests; 0 = off.",
              "OBS-21")
          .atLeast(0)
          .atMost(100);

  static final Group LIMITS =
      Group.object(
          "limits",
          "Org-limits poller.",
          "OBS-12, OBS-21",
          List.of(LIMITS_ENABLED, LIMITS_POLL_INTERVAL, RESERVE_PERCENT));

  /** The {@code salesforce} object. */
  static final Group SALESFORCE =
      Group.object(
              "salesforce",
              "One Salesforce org (single-org mode; exclusive with orgs).",
              "CFG-11",
              List.of(
                  LOGIN_URL,
                  ENVIRONMENT,
                  AUTH_MODE,
                  CLIENT_ID,
                  CLIENT_SECRET,
                  USERNAME,
                  PRIVATE_KEY,
                  API_VERSION,
                  ORG_ID,
                  JWT_AUDIENCE,
                  TOKEN_TTL))
          .with(LIMITS);

  private SalesforceKeys() {}
}
