package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.time.StopSignal;

/**
 * Runs one topic's subscription loop for one leadership term (SPEC PS-16): subscribes, decodes,
 * writes entries to the term's bridge, reconnects on every error, and returns only when {@code
 * stop} fires (the source stops a reader when the term ends or rediscovery retires its topic,
 * PS-21). Salesforce and transport errors never escape.
 */
@FunctionalInterface
public interface TopicRunner {
  /**
   * Runs the reader of {@code topic} until {@code stop} fires.
   *
   * @param topic the topic name, e.g. {@code /event/LoginEventStream}
   * @param bridge the term's bridge (PS-17)
   * @param stop fires when the term ends or the topic is retired
   * @throws InterruptedException if the reader thread is interrupted
   */
  void run(String topic, BridgeWriter bridge, StopSignal stop) throws InterruptedException;
}
