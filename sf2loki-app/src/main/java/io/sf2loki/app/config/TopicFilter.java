package io.sf2loki.app.config;

import io.sf2loki.core.transform.Glob;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The compiled {@code sources.pubsub.include}/{@code exclude} globs (SPEC PS-19, XF-11): a topic
 * passes when it matches at least one include glob and no exclude glob. Equal when the globs are
 * equal, so a bound {@code PubSubSourceSettings} compares by value (CFG-11 default check).
 */
final class TopicFilter implements Predicate<String> {
  private final List<String> include;
  private final List<String> exclude;
  private final List<Pattern> in;
  private final List<Pattern> ex;

  TopicFilter(List<String> include, List<String> exclude) {
    this.include = List.copyOf(include);
    this.exclude = List.copyOf(exclude);
    this.in = this.include.stream().map(Glob::toPattern).toList();
    this.ex = this.exclude.stream().map(Glob::toPattern).toList();
  }

  /** The {@code include} globs. */
  List<String> include() {
    return include;
  }

  @Override
  public boolean test(String topic) {
    return in.stream().anyMatch(p -> p.matcher(topic).matches())
        && ex.stream().noneMatch(p -> p.matcher(topic).matches());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TopicFilter f && f.include.equals(include) && f.exclude.equals(exclude);
  }

  @Override
  public int hashCode() {
    return Objects.hash(include, exclude);
  }

  @Override
  public String toString() {
    return "TopicFilter[include=" + include + ", exclude=" + exclude + "]";
  }
}
