package io.sf2loki.app.config;

import io.sf2loki.salesforce.pubsub.PubSubChannels;
import io.sf2loki.salesforce.pubsub.PubSubReaderSettings;
import io.sf2loki.salesforce.pubsub.PubSubSourceSettings;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * {@code sources.pubsub} (SPEC §1.3, PS): the component settings the binder built from it, plus the
 * switch and the transform rules. The other accessors are views of the settings.
 *
 * @param enabled default true
 * @param channel {@code endpoint} and {@code tls} with the PS-1 channel defaults
 * @param source {@code topics}, the compiled {@code include}/{@code exclude} filter (PS-19), {@code
 *     rediscovery_interval} (PS-21), {@code bridge_max_bytes} (PS-17), PS-16/PS-20 timings
 * @param reader {@code default_num_requested} (PS-3), {@code replay_preset}, {@code
 *     on_invalid_replay} (PS-13, PS-15), the compiled {@code sample} map (XF-9), the global
 *     structured metadata fields (SRC-9) and the PS-6…PS-9 defaults
 * @param transforms rules (XF)
 */
public record PubSubConfig(
    boolean enabled,
    PubSubChannels.Settings channel,
    PubSubSourceSettings source,
    PubSubReaderSettings reader,
    List<TransformRule> transforms) {

  /** {@code topics} as configured, in order; {@code "*"} requests discovery (PS-20). */
  public List<String> topics() {
    return source.topics();
  }

  /** {@code include} globs (PS-19). */
  public List<String> include() {
    return ((TopicFilter) source.filter()).include();
  }

  /** {@code sample}: glob → rate, in configured order (XF-9). */
  public Map<String, Double> sample() {
    return ((SampleRates) reader.sampleRates()).rates();
  }

  /**
   * The explicit topics that survive the filters (PS-19): {@code *} dropped, de-duplicated in
   * order, kept iff included and not excluded. These are the topics known at build time (SRC-23
   * overlap check, SRC-24 seed, startup banner).
   *
   * @return the filtered explicit topics
   */
  public List<String> explicitTopics() {
    return new LinkedHashSet<>(topics())
        .stream().filter(t -> !t.equals("*")).filter(source.filter()).toList();
  }
}
