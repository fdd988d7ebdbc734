package io.sf2loki.sim.pubsub;

import io.sf2loki.sim.elf.SalesforceIds;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.avro.Schema;

/**
 * Plausible, deterministic event bodies for a writer schema: the same seed, topic and sequence of
 * calls (and clock readings) give the same values. Real-time event monitoring fields are filled by
 * name (EventDate/CreatedDate epoch millis, EventIdentifier/EventUuid UUIDs, UserId/Username from a
 * small user pool, TEST-NET SourceIp, ...); unknown nullable fields stay null. Schemas with a
 * {@code ChangeEventHeader} get a change event (CREATE or UPDATE) with Salesforce-style bitmap
 * strings ({@code "0x…"} for top-level field positions, {@code "N-0x…"} for sub-fields of the
 * compound field at position N). Not thread-safe: {@link SimPubSub} calls it under the topic's
 * lock.
 */
final class EventGenerator {
  private static final String[][] PLACES = {
    {"DE", "Germany", "Berlin", "BE", "10115", "52.52", "13.405"},
    {"US", "United States", "San Francisco", "CA", "94105", "37.7897", "-122.3972"},
    {"GB", "United Kingdom", "London", "ENG", "EC2N", "51.5136", "-0.0890"},
    {"JP", "Japan", "Tokyo", "13", "100-0005", "35.6812", "139.7671"},
  };
  private static final String[] BROWSERS = {"Chrome 124", "Firefox 125", "Safari 17", "Unknown"};
  private static final String[] PLATFORMS = {"Mac OSX", "Windows 10", "Linux", "Unknown"};
  private static final String[] USER_AGENTS = {
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0.0.0 Safari/537.36",
    "SFDC-Callout/60.0",
    "Dataloader/60.0.0",
  };
  private static final String[] LOGIN_TYPES = {
    "Application", "Remote Access 2.0", "SAML Sfdc Initiated SSO", "Remote Access Client"
  };
  private static final String[] LOGIN_STATUSES = {
    "Success", "Success", "Success", "Success", "Invalid Password", "Failed: Computer activation"
  };
  private static final String[] API_TYPES = {"REST API", "SOAP Partner", "Bulk API 2.0"};
  private static final String[] OPERATIONS = {"Query", "Query", "QueryMore", "Update", "Insert"};
  private static final String[] ENTITIES = {"Account", "Contact", "Lead", "Opportunity", "Case"};
  private static final String[] INDUSTRIES = {"Technology", "Banking", "Retail", "Energy"};
  private static final String[] RATINGS = {"Hot", "Warm", "Cold"};
  private static final String[] COMPANIES = {"Acme", "Globex", "Initech", "Umbrella", "Hooli"};
  private static final int USERS = 5;

  private final long seed;
  private final Map<String, Random> randoms = new HashMap<>();
  private final Map<String, Long> counters = new HashMap<>();

  EventGenerator(long seed) {
    this.seed = seed;
  }

  /** A generated body and the event time a client derives from it (PS-10). */
  record Generated(Map<String, Object> record, Instant eventTime) {}

  /** The next body for {@code topic} written with {@code schema}, as of {@code now}. */
  Generated next(String topic, Schema schema, Instant now) {
    Random r = randoms.computeIfAbsent(topic, t -> new Random(seed ^ ((long) t.hashCode() << 16)));
    long n = counters.merge(topic, 1L, Long::sum);
    if (schema.getField("ChangeEventHeader") != null) {
      return changeEvent(schema, r, n, now);
    }
    return monitoringEvent(schema, r, now);
  }

  private Generated monitoringEvent(Schema schema, Random r, Instant now) {
    Instant eventTime = now.minusMillis(r.nextInt(2000));
    long created = now.toEpochMilli();
    int user = r.nextInt(USERS);
    String[] place = PLACES[r.nextInt(PLACES.length)];
    String status = pick(r, LOGIN_STATUSES);
    Map<String, Object> m = new LinkedHashMap<>();
    for (Schema.Field f : schema.getFields()) {
      Schema t = nonNull(f.schema());
      Object v =
          switch (f.name()) {
            case "CreatedDate" -> created;
            case "EventDate" -> eventTime.toEpochMilli();
            case "CreatedById", "UserId" -> userId(user);
            case "Username" -> "user" + (user + 1) + "@example.com";
            case "EventIdentifier", "EventUuid" -> uuid(r);
            case "RelatedEventIdentifier" -> r.nextInt(4) == 0 ? uuid(r) : null;
            case "SourceIp" -> ip(r);
            case "LoginType" -> pick(r, LOGIN_TYPES);
            case "LoginSubType" -> r.nextBoolean() ? "OAuth Username-Password" : null;
            case "Status" -> status;
            case "Browser" -> pick(r, BROWSERS);
            case "Platform" -> pick(r, PLATFORMS);
            case "Application" -> r.nextBoolean() ? "Browser" : "Salesforce for iOS";
            case "ApiType" -> t.getType() == Schema.Type.STRING ? pick(r, API_TYPES) : null;
            case "ApiVersion" -> t.getType() == Schema.Type.DOUBLE ? (Object) 60.0 : "60.0";
            case "CipherSuite" -> "TLS_AES_256_GCM_SHA384";
            case "TlsProtocol" -> r.nextBoolean() ? "TLS 1.3" : "TLS 1.2";
            case "CountryIso" -> place[0];
            case "Country" -> place[1];
            case "City" -> place[2];
            case "Subdivision" -> place[3];
            case "PostalCode" -> place[4];
            case "LoginLatitude" -> Double.parseDouble(place[5]);
            case "LoginLongitude" -> Double.parseDouble(place[6]);
            case "LoginUrl" -> "example.my.salesforce.com";
            case "LoginKey", "SessionKey" -> key(r, 16);
            case "LoginHistoryId" ->
                SalesforceIds.id18(SalesforceIds.id15("0Ya", r.nextInt(1 << 30)));
            case "SessionLevel" -> "STANDARD";
            case "UserType" -> "Standard";
            case "HttpMethod" -> r.nextBoolean() ? "POST" : "GET";
            case "AdditionalInfo" -> "{}";
            case "EvaluationTime" -> 0.0;
            case "PolicyOutcome" -> "NoAction";
            case "Operation" -> pick(r, OPERATIONS);
            case "QueriedEntities" -> pick(r, ENTITIES);
            case "Query" -> "SELECT Id, Name FROM " + pick(r, ENTITIES) + " LIMIT 200";
            case "RowsProcessed" -> (double) r.nextInt(50_000);
            case "RowsReturned" -> r.nextInt(2000);
            case "ElapsedTime" -> r.nextInt(1500);
            case "Score" -> Math.round(r.nextDouble() * 10000) / 100.0;
            case "Summary" -> "Unusually high number of records retrieved";
            case "Uri" -> "/services/data/v60.0/query";
            case "UserAgent" -> pick(r, USER_AGENTS);
            case "Client" -> "Dataloader/60.0.0";
            case "RequestIdentifier" -> "TID:" + key(r, 20);
            default -> defaultValue(f.schema());
          };
      m.put(f.name(), v);
    }
    Instant time = m.get("EventDate") instanceof Long l ? Instant.ofEpochMilli(l) : null;
    if (time == null && m.get("CreatedDate") instanceof Long l) {
      time = Instant.ofEpochMilli(l);
    }
    return new Generated(m, time == null ? now : time);
  }

  private Generated changeEvent(Schema schema, Random r, long n, Instant now) {
    long commit = now.toEpochMilli() / 1000 * 1000;
    int user = r.nextInt(USERS);
    boolean create = r.nextInt(10) < 3;
    String recordId = SalesforceIds.id18(SalesforceIds.id15("001", 10_000 + r.nextInt(500)));
    Map<String, Object> m = new LinkedHashMap<>();
    for (Schema.Field f : schema.getFields()) {
      m.put(f.name(), f.name().equals("ChangeEventHeader") ? null : defaultValue(f.schema()));
    }
    List<String> changed = new ArrayList<>();
    if (create) {
      String[] place = PLACES[r.nextInt(PLACES.length)];
      putIfField(schema, m, "Name", pick(r, COMPANIES) + " " + n);
      putIfField(schema, m, "Type", "Customer - Direct");
      putIfField(schema, m, "Phone", phone(r));
      putIfField(schema, m, "Industry", pick(r, INDUSTRIES));
      putIfField(schema, m, "OwnerId", userId(user));
      putIfField(schema, m, "CreatedDate", commit);
      putIfField(schema, m, "CreatedById", userId(user));
      putIfField(schema, m, "LastModifiedDate", commit);
      putIfField(schema, m, "LastModifiedById", userId(user));
      putIfField(schema, m, "CleanStatus", "Pending");
      if (schema.getField("BillingAddress") != null) {
        Map<String, Object> addr = nullRecord(schema.getField("BillingAddress").schema());
        addr.put("City", place[2]);
        addr.put("Country", place[1]);
        addr.put("CountryCode", place[0]);
        m.put("BillingAddress", addr);
      }
    } else {
      List<Integer> top = new ArrayList<>();
      String[] candidates = {"Phone", "Industry", "Rating", "Website", "NumberOfEmployees"};
      String field = candidates[r.nextInt(candidates.length)];
      if (schema.getField(field) != null) {
        Object v =
            switch (field) {
              case "Phone" -> phone(r);
              case "Industry" -> pick(r, INDUSTRIES);
              case "Rating" -> pick(r, RATINGS);
              case "Website" -> "https://www.example.com/" + key(r, 6).toLowerCase(Locale.ROOT);
              default -> 10 + r.nextInt(5000);
            };
        m.put(field, v);
        top.add(schema.getField(field).pos());
      }
      if (schema.getField("LastModifiedDate") != null) {
        m.put("LastModifiedDate", commit);
        top.add(schema.getField("LastModifiedDate").pos());
      }
      if (!top.isEmpty()) {
        changed.add(bitmap(top));
      }
      Schema.Field ship = schema.getField("ShippingAddress");
      if (ship != null && r.nextInt(4) == 0) {
        Map<String, Object> addr = nullRecord(ship.schema());
        addr.put("Street", (1 + r.nextInt(999)) + " Market St");
        m.put("ShippingAddress", addr);
        int sub = nonNull(ship.schema()).getField("Street").pos();
        changed.add(ship.pos() + "-" + bitmap(List.of(sub)));
      }
    }
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("entityName", "Account");
    header.put("recordIds", List.of(recordId));
    header.put("changeType", create ? "CREATE" : "UPDATE");
    header.put("changeOrigin", "com/salesforce/api/soap/60.0;client=SfdcInternalAPI/");
    header.put("transactionKey", uuid(r));
    header.put("sequenceNumber", 1);
    header.put("commitTimestamp", commit);
    header.put("commitNumber", 12_000_000_000_000L + n * 1000 + r.nextInt(1000));
    header.put("commitUser", userId(user));
    header.put("nulledFields", List.of());
    header.put("diffFields", List.of());
    header.put("changedFields", changed);
    m.put("ChangeEventHeader", header);
    return new Generated(m, Instant.ofEpochMilli(commit));
  }

  /** {@code "0x…"}: bit i set for each position i, big-endian, two uppercase hex digits a byte. */
  static String bitmap(List<Integer> positions) {
    BigInteger b = BigInteger.ZERO;
    for (int p : positions) {
      b = b.setBit(p);
    }
    byte[] bytes = b.toByteArray();
    int off = bytes.length > 1 && bytes[0] == 0 ? 1 : 0;
    return "0x" + HexFormat.of().withUpperCase().formatHex(bytes, off, bytes.length);
  }

  private static void putIfField(Schema s, Map<String, Object> m, String name, Object v) {
    if (s.getField(name) != null) {
      m.put(name, v);
    }
  }

  private static Map<String, Object> nullRecord(Schema fieldSchema) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Schema.Field f : nonNull(fieldSchema).getFields()) {
      m.put(f.name(), null);
    }
    return m;
  }

  /** The non-null branch of a {@code ["null", T]} union (the first record branch otherwise). */
  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    Schema first = null;
    for (Schema b : s.getTypes()) {
      if (b.getType() == Schema.Type.RECORD) {
        return b;
      }
      if (b.getType() != Schema.Type.NULL && first == null) {
        first = b;
      }
    }
    return first == null ? s : first;
  }

  /** null for nullable fields; a zero value for required ones. */
  private static Object defaultValue(Schema s) {
    return switch (s.getType()) {
      case NULL, UNION -> null;
      case STRING -> "";
      case LONG -> 0L;
      case INT -> 0;
      case DOUBLE -> 0.0;
      case FLOAT -> 0.0f;
      case BOOLEAN -> false;
      case BYTES, FIXED -> new byte[s.getType() == Schema.Type.FIXED ? s.getFixedSize() : 0];
      case ENUM -> s.getEnumSymbols().get(0);
      case ARRAY -> List.of();
      case MAP -> Map.of();
      case RECORD -> {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Schema.Field f : s.getFields()) {
          m.put(f.name(), defaultValue(f.schema()));
        }
        yield m;
      }
    };
  }

  private static String userId(int user) {
    return SalesforceIds.id18(SalesforceIds.id15("005", 1000 + user));
  }

  private static String uuid(Random r) {
    return new UUID((r.nextLong() & ~0xF000L) | 0x4000L, (r.nextLong() & ~(3L << 62)) | (1L << 63))
        .toString();
  }

  private static String ip(Random r) {
    String[] nets = {"192.0.2.", "198.51.100.", "203.0.113."};
    return nets[r.nextInt(nets.length)] + (1 + r.nextInt(254));
  }

  private static String phone(Random r) {
    return String.format(Locale.ROOT, "+1 415 555 %04d", r.nextInt(10000));
  }

  private static String key(Random r, int len) {
    String a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder sb = new StringBuilder(len);
    for (int i = 0; i < len; i++) {
      sb.append(a.charAt(r.nextInt(a.length())));
    }
    return sb.toString();
  }

  private static String pick(Random r, String[] values) {
    return values[r.nextInt(values.length)];
  }
}
