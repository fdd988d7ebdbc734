package io.sf2loki.app.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import net.logstash.logback.composite.AbstractFieldJsonProvider;

/** Writes {@code "level": "debug|info|warning|error"} (SPEC OBS-9). */
public final class SpecLevelJsonProvider extends AbstractFieldJsonProvider<ILoggingEvent> {
  public SpecLevelJsonProvider() {
    setFieldName("level");
  }

  @Override
  public void writeTo(JsonGenerator generator, ILoggingEvent event) throws IOException {
    generator.writeStringField(getFieldName(), SpecLevels.name(event.getLevel()));
  }
}
