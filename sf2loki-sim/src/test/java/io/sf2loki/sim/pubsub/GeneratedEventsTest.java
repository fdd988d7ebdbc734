package io.sf2loki.sim.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Generated payloads decode with the writer schema and look like Salesforce's. */
class GeneratedEventsTest {
  static final Instant NOW = Instant.parse("2024-06-05T10:00:00.123Z");
  final FakeTime time = new FakeTime(NOW);
  SimPubSub sim;

  SimPubSub start(long seed) throws Exception {
    return SimPubSub.builder()
        .loopback(false)
        .manualKeepalives()
        .clock(time.wall())
        .seed(seed)
        .start();
  }

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  @DisplayName("PS-4/PS-5: every built-in topic's payloads decode with GenericDatumReader")
  void payloadsDecode() throws Exception {
    sim = start(7);
    for (String topic : sim.topics()) {
      Schema writer = new Schema.Parser().parse(sim.schemaJson(sim.schemaIdOf(topic)));
      for (PublishedEvent e : sim.publish(topic, 20)) {
        GenericRecord r = AvroDecoding.decode(writer, e.payload());
        assertThat(r.getSchema().getFields()).hasSameSizeAs(writer.getFields());
        assertThat(e.fields()).hasSize(writer.getFields().size());
        assertThat(String.valueOf(r.get("CreatedById")))
            .isEqualTo(String.valueOf(e.fields().get("CreatedById")));
      }
    }
  }

  @Test
  @DisplayName("PS-10: monitoring events carry EventDate/CreatedDate millis, ids, users and IPs")
  void monitoringFields() throws Exception {
    sim = start(1);
    for (PublishedEvent e : sim.publish(SimPubSub.LOGIN_TOPIC, 30)) {
      Map<String, Object> f = e.fields();
      long eventDate = (Long) f.get("EventDate");
      assertThat(e.eventTime()).isEqualTo(Instant.ofEpochMilli(eventDate));
      assertThat(eventDate).isBetween(NOW.toEpochMilli() - 2000, NOW.toEpochMilli());
      assertThat(f.get("CreatedDate")).isEqualTo(NOW.toEpochMilli());
      assertThat((String) f.get("EventIdentifier")).matches("[0-9a-f-]{36}");
      assertThat((String) f.get("EventUuid")).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f-]{21}");
      assertThat((String) f.get("UserId")).startsWith("005").hasSize(18);
      assertThat((String) f.get("Username")).endsWith("@example.com");
      assertThat((String) f.get("SourceIp"))
          .matches("(192\\.0\\.2|198\\.51\\.100|203\\.0\\.113)\\.\\d+");
      assertThat(f.get("Status")).isNotNull();
      assertThat(e.publishedAt()).isEqualTo(NOW);
      assertThat(e.poison()).isFalse();
    }
    PublishedEvent api = sim.publish(SimPubSub.API_TOPIC, 1).get(0);
    assertThat(api.fields().get("ApiVersion")).isEqualTo(60.0);
    assertThat(api.fields().get("RowsReturned")).isInstanceOf(Integer.class);
  }

  @Test
  @DisplayName(
      "PS-5/PS-10: change events have a ChangeEventHeader with commitTimestamp and bitmaps")
  void changeEvents() throws Exception {
    sim = start(3);
    Schema schema = sim.schema(sim.schemaIdOf(SimPubSub.ACCOUNT_CDC_TOPIC));
    boolean sawCreate = false;
    boolean sawUpdate = false;
    for (PublishedEvent e : sim.publish(SimPubSub.ACCOUNT_CDC_TOPIC, 40)) {
      @SuppressWarnings("unchecked")
      Map<String, Object> h = (Map<String, Object>) e.fields().get("ChangeEventHeader");
      assertThat(h.get("entityName")).isEqualTo("Account");
      long commit = (Long) h.get("commitTimestamp");
      assertThat(commit % 1000).isZero();
      assertThat(e.eventTime()).isEqualTo(Instant.ofEpochMilli(commit));
      assertThat((List<?>) h.get("recordIds")).hasSize(1);
      @SuppressWarnings("unchecked")
      List<String> changed = (List<String>) h.get("changedFields");
      changed.forEach(c -> assertThat(c).matches("(\\d+-)?0x([0-9A-F]{2})+"));
      if (h.get("changeType").equals("CREATE")) {
        sawCreate = true;
        assertThat(changed).isEmpty();
        assertThat(e.fields().get("CreatedDate")).isEqualTo(commit);
        assertThat(e.fields().get("Name")).isInstanceOf(String.class);
      } else {
        sawUpdate = true;
        assertThat(h.get("changeType")).isEqualTo("UPDATE");
        assertThat(changed).isNotEmpty();
        assertThat(e.fields().get("LastModifiedDate")).isEqualTo(commit);
        assertThat(e.fields().get("CreatedDate")).isNull();
      }
      GenericRecord r = AvroDecoding.decode(schema, e.payload());
      assertThat(String.valueOf(((GenericRecord) r.get("ChangeEventHeader")).get("changeType")))
          .isEqualTo(h.get("changeType"));
    }
    assertThat(sawCreate).isTrue();
    assertThat(sawUpdate).isTrue();
  }

  @Test
  @DisplayName("bitmaps match the captured fixture encoding")
  void bitmapEncoding() throws Exception {
    sim = start(1);
    Schema s = sim.schema("i8wgJwwM-AVcDbFkbRl5Nw");
    int lastModified = s.getField("LastModifiedDate").pos();
    int amountOwed = s.getField("Amount_Owed__c").pos();
    assertThat(EventGenerator.bitmap(List.of(lastModified))).isEqualTo("0x800000");
    assertThat(EventGenerator.bitmap(List.of(lastModified, amountOwed)))
        .isEqualTo("0x100000000000800000");
    assertThat(EventGenerator.bitmap(List.of(7, 8))).isEqualTo("0x0180");
    assertThat(EventGenerator.bitmap(List.of(0))).isEqualTo("0x01");
  }

  @Test
  @DisplayName("the same seed and clock give the same events")
  void deterministic() throws Exception {
    SimPubSub a = start(42);
    SimPubSub b = start(42);
    try (a;
        b) {
      for (String topic : a.topics()) {
        List<PublishedEvent> x = a.publish(topic, 10);
        List<PublishedEvent> y = b.publish(topic, 10);
        for (int i = 0; i < x.size(); i++) {
          assertThat(x.get(i).payload()).isEqualTo(y.get(i).payload());
          assertThat(x.get(i).replayId()).isEqualTo(y.get(i).replayId());
          assertThat(x.get(i).eventId()).isEqualTo(y.get(i).eventId());
        }
      }
    }
  }
}
