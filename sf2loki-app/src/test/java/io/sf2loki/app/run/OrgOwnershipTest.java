package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.OrgConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrgOwnershipTest {
  @TempDir Path dir;

  private OrgConfig org(String sources) throws Exception {
    Path p = dir.resolve("c" + System.nanoTime() + ".yaml");
    Files.writeString(
        p,
        "salesforce: {client_id: c, username: u@example.com, private_key: K}\n"
            + "sources:\n"
            + sources
            + "sink: {loki: {url: 'http://loki:3100/loki/api/v1/push'}}\n");
    return new ConfigLoader().load(p, Map.of()).orgs().getFirst();
  }

  @Test
  @DisplayName(
      "SRC-24: a discovered topic is skipped when an object or explicit ELF type owns its"
          + " category; a discovered ELF type is skipped when any topic (explicit or discovered)"
          + " or object owns it; a released topic frees its category")
  void src24_registry() throws Exception {
    OrgOwnership o =
        new OrgOwnership(
            org(
                "  pubsub: {topics: ['*', /event/ApiEventStream]}\n"
                    + "  eventlog_objects: {enabled: true, objects: [{name: LoginHistory}]}\n"
                    + "  eventlogfile: {enabled: true, event_types: [{name: Logout}]}\n"));
    assertThat(o.ownedElsewhere("/event/LoginEventStream")).isTrue(); // object LoginHistory
    assertThat(o.ownedElsewhere("/event/LogoutEventStream")).isTrue(); // explicit ELF Logout
    assertThat(o.ownedElsewhere("/event/UriEventStream")).isFalse();
    var elf = o.elfOwnedElsewhere();
    assertThat(elf.test("API")).isTrue(); // explicit topic ApiEventStream
    assertThat(elf.test("Login")).isTrue(); // object
    assertThat(elf.test("URI")).isFalse();
    o.claim("/event/UriEventStream");
    assertThat(elf.test("URI")).isTrue(); // discovered topic
    o.release("/event/UriEventStream");
    assertThat(elf.test("URI")).isFalse();
  }

  @Test
  @DisplayName("SRC-24: with allow_overlap nothing is owned elsewhere")
  void src24_allowOverlap() throws Exception {
    OrgOwnership o =
        new OrgOwnership(
            org(
                "  allow_overlap: true\n"
                    + "  pubsub: {topics: ['*']}\n"
                    + "  eventlog_objects: {enabled: true, objects: [{name: LoginHistory}]}\n"
                    + "  eventlogfile: {enabled: true, event_types: [{name: '*'}]}\n"));
    assertThat(o.ownedElsewhere("/event/LoginEventStream")).isFalse();
    assertThat(o.elfOwnedElsewhere().test("Login")).isFalse();
  }

  @Test
  @DisplayName(
      "SRC-24: with both wildcards, ELF discovery filtering waits for the first Pub/Sub pass and"
          + " then sees the topics it discovered")
  void src24_elfWaitsForFirstPubSubPass() throws Exception {
    OrgOwnership o =
        new OrgOwnership(
            org(
                "  pubsub: {topics: ['*']}\n"
                    + "  eventlogfile: {enabled: true, event_types: [{name: '*'}]}\n"));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch answered = new CountDownLatch(1);
    AtomicBoolean owned = new AtomicBoolean();
    Thread elf =
        Thread.ofVirtual()
            .start(
                () -> {
                  started.countDown();
                  owned.set(o.elfOwnedElsewhere().test("Login"));
                  answered.countDown();
                });
    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(answered.await(50, TimeUnit.MILLISECONDS)).isFalse(); // still waiting
    o.claim("/event/LoginEventStream");
    o.firstPassDone();
    assertThat(answered.await(5, TimeUnit.SECONDS)).isTrue();
    elf.join();
    assertThat(owned).isTrue();
  }
}
