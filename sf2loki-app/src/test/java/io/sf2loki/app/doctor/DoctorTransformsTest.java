package io.sf2loki.app.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DOC-2 row 8 and the CFG-24 startup warning for {@code hash} rules (SPEC XF-2). */
class DoctorTransformsTest {
  @TempDir Path dir;

  private Sf2lokiConfig load(String salt, String rules) throws Exception {
    String yaml =
        """
        salesforce:
          client_id: cid
          username: u@example.com
          private_key: PEM
        sources:
        %s  eventlogfile:
            enabled: true
            event_types: [Login]
            transforms:
        %s
        sink:
          loki:
            url: https://loki.example.com/loki/api/v1/push
        """
            .formatted(salt, rules);
    Path f = dir.resolve("c.yaml");
    Files.writeString(f, yaml);
    return new ConfigLoader().load(f, Map.of());
  }

  @Test
  @DisplayName(
      "CFG-24, XF-2, DOC-2: a hash rule without salt warns at startup naming rule and source, and"
          + " doctor row 8 says WARN; with a salt PASS; without hash rules SKIP")
  void cfg24_hashWithoutSaltWarnsAndDoctorRow8() throws Exception {
    Sf2lokiConfig unsalted = load("", "      - {action: hash, fields: [CLIENT_IP], name: ip}");
    assertThat(unsalted.warnings())
        .anySatisfy(
            w ->
                assertThat(w)
                    .contains("hash transform rule 'ip'")
                    .contains("eventlogfile")
                    .contains("transform_salt"));
    Check row = Doctor.transforms(unsalted.orgs().get(0));
    assertThat(row.name()).isEqualTo("transforms");
    assertThat(row.status()).isEqualTo(Check.Status.WARN);
    assertThat(row.detail()).contains("1 hash rule(s) without sources.transform_salt");

    Sf2lokiConfig salted =
        load("  transform_salt: pepper\n", "      - {action: hash, fields: [CLIENT_IP]}");
    assertThat(salted.warnings()).noneSatisfy(w -> assertThat(w).contains("hash transform rule"));
    assertThat(Doctor.transforms(salted.orgs().get(0)).status()).isEqualTo(Check.Status.PASS);
    assertThat(salted.toString()).doesNotContain("pepper");

    Sf2lokiConfig none = load("", "      - {action: mask, fields: [CLIENT_IP]}");
    assertThat(Doctor.transforms(none.orgs().get(0)).status()).isEqualTo(Check.Status.SKIP);
  }
}
