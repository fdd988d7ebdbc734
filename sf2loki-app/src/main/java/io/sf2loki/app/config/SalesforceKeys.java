package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.number;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import java.time.Duration;
import java.util.List;

/** Definitions of {@code salesforce} (also {@code orgs[].salesforce}), SPEC §1.3. */
final class SalesforceKeys {
  static final Setting LOGIN_URL = SalesforceAuthSettings.LOGIN_URL;
  static final Setting ENVIRONMENT = SalesforceAuthSettings.ENVIRONMENT;
  static final Setting AUTH_MODE = SalesforceAuthSettings.AUTH_MODE;
  static final Setting CLIENT_ID = SalesforceAuthSettings.CLIENT_ID;
  static final Setting CLIENT_SECRET = SalesforceAuthSettings.CLIENT_SECRET;
  static final Setting USERNAME = SalesforceAuthSettings.USERNAME;
  static final Setting PRIVATE_KEY = SalesforceAuthSettings.PRIVATE_KEY;
  static final Setting API_VERSION =
      string(
          "api_version", "60.0", "REST API version in /services/data/v{api_version}/.", "CFG-10");
  static final Setting ORG_ID =
      string("org_id", null, "15/18-char org id; absent = resolved via userinfo.", "AUTH-8");
  static final Setting JWT_AUDIENCE = SalesforceAuthSettings.JWT_AUDIENCE;
  static final Setting TOKEN_TTL = SalesforceAuthSettings.TOKEN_TTL;
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
