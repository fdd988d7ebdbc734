package io.sf2loki.app.config;

import io.sf2loki.core.settings.Setting;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The configuration model of SPEC §1.3: the tree of {@link Group}s and {@link Setting}s the binder
 * validates against (CFG-4) and the generators render (CFG-26). Adding a key means adding one
 * {@link Setting} to its group here (see DESIGN.md "How to add a setting").
 */
public final class ConfigModel {
  static final Setting ORG_NAME =
      Setting.string(
              "name", null, "Org name: label org and checkpoint prefix org=<name>:.", "ORG-1")
          .mandatory()
          .example("prod");

  /**
   * {@code orgs[].loki}: the org's Loki identity (FEAT-6, CFG-42); the same definitions as {@code
   * sink.loki.tenant_id} / {@code auth_token}, absent = inherited.
   */
  static final Group ORG_LOKI =
      Group.object(
          "loki",
          "This org's Loki tenant and token; an absent key inherits sink.loki's.",
          "FEAT-6, CFG-42",
          List.of(SinkKeys.TENANT_ID, SinkKeys.AUTH_TOKEN));

  /** {@code orgs[]}: one named org (multi-org mode). */
  static final Group ORGS =
      Group.listOf(
              "orgs",
              "Named orgs (multi-org mode; exclusive with salesforce).",
              "CFG-11",
              List.of(ORG_NAME))
          .with(SalesforceKeys.SALESFORCE.mandatory(), SourceKeys.SOURCES, ORG_LOKI);

  /** The root object. */
  public static final Group ROOT =
      Group.object("", "The whole configuration file.", "CFG-1", List.of())
          .with(
              SalesforceKeys.SALESFORCE,
              ORGS,
              SourceKeys.SOURCES,
              SinkKeys.SINK,
              StateKeys.STATE,
              StateKeys.COORDINATE,
              ServiceKeys.SERVICE);

  private ConfigModel() {}

  /**
   * The object at a dotted path of object keys ({@code ""} = root, {@code "sources.pubsub"}, {@code
   * "orgs"} for an org item); fails on an unknown path (a definition bug).
   */
  public static Group group(String path) {
    Group g = ROOT;
    if (!path.isEmpty()) {
      for (String part : path.split("\\.")) {
        g = g.child(part);
      }
    }
    return g;
  }

  /** The keys the object at {@code path} accepts (CFG-4). */
  static Set<String> keys(String path) {
    return Set.copyOf(new LinkedHashSet<>(group(path).keys()));
  }
}
