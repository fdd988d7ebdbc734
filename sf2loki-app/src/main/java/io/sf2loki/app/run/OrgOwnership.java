package io.sf2loki.app.run;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.SourcesConfig;
import io.sf2loki.core.overlap.OverlapGuard;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.source.SourceOwnership;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One org's run-time ownership registry for one term (SPEC SRC-24), seeded with the categories
 * (SRC-22) of the org's explicit entries. Discovered Pub/Sub topics whose category is owned by an
 * object or an explicit EventLogFile type are skipped; discovered EventLogFile types whose category
 * is owned by any Pub/Sub topic (explicit or discovered) or an object are skipped. When both
 * wildcards are configured, EventLogFile discovery waits for the first Pub/Sub discovery pass of
 * the term to finish (or fail, or the term to stop) before filtering. Under {@code allow_overlap}
 * nothing is owned elsewhere. Thread-safe.
 */
final class OrgOwnership implements SourceOwnership {
  private static final Logger log = LoggerFactory.getLogger(OrgOwnership.class);

  /**
   * Upper bound on the ELF wait for the first Pub/Sub pass (a guard; the source always signals).
   */
  static final Duration FIRST_PASS_WAIT = Duration.ofMinutes(10);

  private final boolean allowOverlap;
  private final Set<String> explicitTopics = new HashSet<>();
  private final Set<String> objects = new HashSet<>();
  private final Set<String> explicitElfTypes = new HashSet<>();
  private final ConcurrentHashMap<String, Integer> discoveredTopics = new ConcurrentHashMap<>();
  private final CountDownLatch firstPass;

  OrgOwnership(OrgConfig org) {
    SourcesConfig s = org.sources();
    this.allowOverlap = s.allowOverlap();
    boolean topicWildcard = s.pubsub().enabled() && s.pubsub().topics().contains("*");
    boolean elfWildcard =
        s.eventlogfile().enabled()
            && s.eventlogfile().settings().eventTypes().stream()
                .anyMatch(t -> t.name().equals("*"));
    if (s.pubsub().enabled()) {
      s.pubsub().explicitTopics().forEach(t -> explicitTopics.add(OverlapGuard.ofTopic(t)));
    }
    if (s.eventlogObjects().enabled()) {
      s.eventlogObjects().settings().objects().stream()
          .map(ObjectSettings::name)
          .forEach(o -> objects.add(OverlapGuard.ofObject(o)));
    }
    if (s.eventlogfile().enabled()) {
      s.eventlogfile().settings().eventTypes().stream()
          .map(t -> t.name())
          .filter(n -> !n.equals("*"))
          .forEach(n -> explicitElfTypes.add(OverlapGuard.ofElfType(n)));
    }
    this.firstPass = new CountDownLatch(topicWildcard && elfWildcard && !allowOverlap ? 1 : 0);
  }

  @Override
  public boolean ownedElsewhere(String topic) {
    if (allowOverlap) {
      return false;
    }
    String c = OverlapGuard.ofTopic(topic);
    return objects.contains(c) || explicitElfTypes.contains(c);
  }

  @Override
  public void claim(String topic) {
    discoveredTopics.merge(OverlapGuard.ofTopic(topic), 1, Integer::sum);
  }

  @Override
  public void release(String topic) {
    discoveredTopics.computeIfPresent(OverlapGuard.ofTopic(topic), (k, n) -> n <= 1 ? null : n - 1);
  }

  @Override
  public void firstPassDone() {
    firstPass.countDown();
  }

  @Override
  public boolean elfTypeOwnedElsewhere(String eventType) {
    return elfOwnedElsewhere().test(eventType);
  }

  /**
   * The EventLogFile discovery check: whether a discovered EventType's category is owned by a
   * Pub/Sub topic (explicit or discovered so far) or an object. Waits first, when both wildcards
   * are configured, for the first Pub/Sub discovery pass (at most {@link #FIRST_PASS_WAIT}).
   */
  Predicate<String> elfOwnedElsewhere() {
    return name -> {
      if (allowOverlap) {
        return false;
      }
      awaitFirstPass();
      String c = OverlapGuard.ofElfType(name);
      return explicitTopics.contains(c) || objects.contains(c) || discoveredTopics.containsKey(c);
    };
  }

  private void awaitFirstPass() {
    try {
      if (!firstPass.await(FIRST_PASS_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        log.atWarn().log("pubsub discovery did not finish its first pass; filtering ELF types now");
        firstPass.countDown();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
