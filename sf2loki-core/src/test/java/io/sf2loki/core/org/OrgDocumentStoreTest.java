package io.sf2loki.core.org;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.egress.BudgetAction;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgDocumentStoreTest {
  private final InMemoryCheckpointStore deployment =
      new InMemoryCheckpointStore(
          Map.of(
              "org=eu:eventlogfile:Login",
              "deployment-eu",
              "eventlogfile:Login",
              "legacy",
              EgressGovernor.BUDGET_KEY,
              "{\"date\":\"2026-12-03\",\"bytes\":9}"));
  private final InMemoryCheckpointStore own = new InMemoryCheckpointStore();
  private final OrgDocumentStore store = new OrgDocumentStore(own, deployment);

  @Test
  @DisplayName(
      "STATE-19: reads fall back to the deployment document (prefixed and ORG-5 legacy keys);"
          + " writes land only in the org's document and then win")
  void state19_readThroughWriteOwn() {
    assertThat(store.load("org=eu:eventlogfile:Login")).hasValue("deployment-eu");
    assertThat(store.load("eventlogfile:Login")).hasValue("legacy");

    store.commitMany(Map.of("org=eu:eventlogfile:Login", "own-eu"), Set.of("eventlogfile:Login"));

    assertThat(store.load("org=eu:eventlogfile:Login")).hasValue("own-eu");
    assertThat(own.snapshot()).containsOnlyKeys("org=eu:eventlogfile:Login");
    assertThat(deployment.writes()).isEmpty(); // the deployment document is only read
    assertThat(store.load("eventlogfile:Login")).hasValue("legacy");
    assertThat(store.snapshot()).isEqualTo(own.snapshot());
  }

  @Test
  @DisplayName("STATE-20: egress:budget never falls back to the deployment-wide count")
  void state20_budgetIsTheOrgsOwn() {
    assertThat(store.load(EgressGovernor.BUDGET_KEY)).isEmpty();
    store.commitMany(Map.of(EgressGovernor.BUDGET_KEY, "mine"), Set.of());
    assertThat(store.load(EgressGovernor.BUDGET_KEY)).hasValue("mine");
  }

  @Test
  @DisplayName("STATE-19: a term's end resets the org document's cache only")
  void state19_resetOwnOnly() {
    store.reset();
    assertThat(own.resets()).isEqualTo(1);
    assertThat(deployment.resets()).isZero();
  }

  @Test
  @DisplayName(
      "CFG-46: each org's governor gets limits / orgs, so the orgs together never exceed the"
          + " configured limits; an enabled budget stays enabled")
  void cfg46_shareDividesEveryLimit() {
    EgressSettings s = new EgressSettings(60, 600, 6_000, BudgetAction.DROP);
    EgressSettings part = s.share(6);
    assertThat(part.maxLinesPerSecond()).isEqualTo(10);
    assertThat(part.maxBytesPerSecond()).isEqualTo(100);
    assertThat(part.dailyByteBudget()).isEqualTo(1_000);
    assertThat(part.budgetAction()).isEqualTo(BudgetAction.DROP);
    assertThat(new EgressSettings(0, 0, 5, BudgetAction.PAUSE).share(6))
        .isEqualTo(new EgressSettings(0, 0, 1, BudgetAction.PAUSE));
    assertThat(EgressSettings.disabled().share(3).enabled()).isFalse();
  }
}
