package io.sf2loki.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads sums out of a Prometheus text exposition (the daemon's {@code /metrics}). */
final class PromText {
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})?\\s+([-+0-9.eE]+|NaN)");

  private PromText() {}

  /**
   * Sums the samples of every series whose name is {@code metric} or {@code metric_total}, grouped
   * by the value of {@code label} ({@code ""} when a series lacks it).
   *
   * @return label value → sum, rounded to a whole number
   */
  static Map<String, Long> sumBy(String text, String metric, String label) {
    Map<String, Long> out = new TreeMap<>();
    Pattern lab = Pattern.compile("[{,]" + Pattern.quote(label) + "=\"([^\"]*)\"");
    for (String line : text.split("\n")) {
      Matcher m = SAMPLE.matcher(line);
      if (!m.find()) {
        continue;
      }
      String name = m.group(1);
      if (!name.equals(metric) && !name.equals(metric + "_total")) {
        continue;
      }
      String labels = m.group(2) == null ? "" : m.group(2);
      Matcher l = lab.matcher(labels);
      String key = l.find() ? l.group(1) : "";
      double v = m.group(3).equals("NaN") ? 0 : Double.parseDouble(m.group(3));
      out.merge(key, Math.round(v), Long::sum);
    }
    return out;
  }
}
