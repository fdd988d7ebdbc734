package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PubSubEventTimeTest {

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  @DisplayName("PS-10: EventDate wins over CreatedDate on a platform event")
  void eventDateFirst() {
    assertThat(PubSubEventTime.fromFields(map("EventDate", 2000L, "CreatedDate", 1000L)))
        .contains(Instant.ofEpochMilli(2000));
  }

  @Test
  @DisplayName("PS-10: CreatedDate when EventDate is null")
  void createdDateSecond() {
    assertThat(PubSubEventTime.fromFields(map("EventDate", null, "CreatedDate", 1000L)))
        .contains(Instant.ofEpochMilli(1000));
  }

  @Test
  @DisplayName("PS-10: a change event uses ChangeEventHeader.commitTimestamp before CreatedDate")
  void changeEventCommitTimestampFirst() {
    Map<String, Object> header = map("commitTimestamp", 1771300995000L);
    assertThat(
            PubSubEventTime.fromFields(
                map("ChangeEventHeader", header, "CreatedDate", 946684800000L)))
        .contains(Instant.ofEpochMilli(1771300995000L));
  }

  @Test
  @DisplayName("PS-10: a change event without commitTimestamp falls back to CreatedDate")
  void changeEventWithoutCommitTimestamp() {
    assertThat(
            PubSubEventTime.fromFields(
                map("ChangeEventHeader", map("commitTimestamp", null), "CreatedDate", 5L)))
        .contains(Instant.ofEpochMilli(5));
  }

  @Test
  @DisplayName("PS-10: timestamp logical types (Instant) are used as they are")
  void instantValues() {
    assertThat(PubSubEventTime.fromFields(map("EventDate", Instant.ofEpochSecond(7))))
        .contains(Instant.ofEpochSecond(7));
  }

  @Test
  @DisplayName("PS-10: no usable field gives empty (caller applies the fallbacks)")
  void noField() {
    assertThat(PubSubEventTime.fromFields(map("EventDate", "not a time", "Other", 1L))).isEmpty();
  }
}
