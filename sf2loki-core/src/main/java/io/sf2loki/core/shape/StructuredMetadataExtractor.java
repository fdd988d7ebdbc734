package io.sf2loki.core.shape;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds an entry's structured metadata per SPEC SRC-9: for each configured name, the value of the
 * key equal to the name, else of the first key (sorted by code point) whose snake form equals it;
 * non-null values as text form (SRC-8); then {@code level} (SRC-10) always set, overriding any
 * payload value. A name resolved to a key holding null is not stored (and not looked up further).
 *
 * <p>Repeated use on payloads with the same key set (CSV rows of one header, or any subset of it
 * after {@code drop_field}) is cheap: the name → candidate-key resolution of the last key set is
 * cached; {@link #compile(Collection)} pins a resolution for a known header. Thread-safe.
 */
public final class StructuredMetadataExtractor {
  /** The metadata name always set last (SRC-10). */
  public static final String LEVEL = "level";

  private static final int SNAKE_CACHE_MAX = 4096;

  private final List<String> names;
  private final ConcurrentHashMap<String, String> snakeCache = new ConcurrentHashMap<>();
  private volatile Resolution last;

  /**
   * @param names the effective metadata field list (global or ELF per-type override)
   */
  public StructuredMetadataExtractor(List<String> names) {
    this.names = List.copyOf(names);
  }

  /** The configured names. */
  public List<String> names() {
    return names;
  }

  /**
   * @param payload the post-transform record
   * @return metadata name → text-form value, including {@code level} (insertion order: configured
   *     names, then {@code level}); a new mutable map
   */
  public Map<String, String> extract(Map<String, ?> payload) {
    return extract(payload, Map.of());
  }

  /**
   * Like {@link #extract(Map)}, but a name the payload does not resolve at all (no equal key and no
   * key with that snake form) takes its value from {@code fallback} when present there — used by
   * Pub/Sub for the envelope names {@code replay_id} and {@code schema_id} (SRC-9).
   *
   * @param payload the post-transform record
   * @param fallback name → value used for names the payload does not resolve
   * @return metadata name → text-form value, including {@code level}
   */
  public Map<String, String> extract(Map<String, ?> payload, Map<String, String> fallback) {
    Resolution r = last;
    if (r == null || !r.covers(payload)) {
      r = resolve(payload.keySet());
      last = r;
    }
    return r.apply(payload, fallback);
  }

  /**
   * Pins the resolution for a known key set (e.g. a CSV header, plus {@code _extra} if wanted). The
   * returned view gives the same results as {@link #extract(Map)} for any payload; it is fastest
   * when the payload's keys are a subset of {@code keys}.
   */
  public Compiled compile(Collection<String> keys) {
    return new Compiled(resolve(keys));
  }

  /** An extractor bound to one key set; see {@link #compile(Collection)}. Thread-safe. */
  public final class Compiled {
    private final Resolution resolution;

    private Compiled(Resolution resolution) {
      this.resolution = resolution;
    }

    /** Same contract as {@link StructuredMetadataExtractor#extract(Map)}. */
    public Map<String, String> extract(Map<String, ?> payload) {
      return extract(payload, Map.of());
    }

    /**
     * Same result as {@link #extract(Map)} for a payload whose keys are all among the compiled keys
     * (e.g. a CSV row of the compiled header), without checking that they are; a payload with other
     * keys gets unspecified results. Candidate keys the payload lacks are skipped exactly as if the
     * resolution had been made for the payload's own key set.
     */
    public Map<String, String> extractSubset(Map<String, ?> payload) {
      return resolution.apply(payload, Map.of());
    }

    /** Same contract as {@link StructuredMetadataExtractor#extract(Map, Map)}. */
    public Map<String, String> extract(Map<String, ?> payload, Map<String, String> fallback) {
      if (resolution.covers(payload)) {
        return resolution.apply(payload, fallback);
      }
      return StructuredMetadataExtractor.this.extract(payload, fallback);
    }
  }

  private Resolution resolve(Collection<String> keySet) {
    Set<String> keys = new HashSet<>(keySet);
    String[][] candidates = new String[names.size()][];
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      List<String> c = new ArrayList<>(2);
      List<String> snakes = new ArrayList<>(2);
      for (String k : keys) {
        if (snake(k).equals(name) && !k.equals(name)) {
          snakes.add(k);
        }
      }
      snakes.sort(CanonicalJson.CODE_POINT_ORDER);
      if (keys.contains(name)) {
        c.add(name);
      }
      c.addAll(snakes);
      candidates[i] = c.toArray(new String[0]);
    }
    return new Resolution(keys, candidates);
  }

  private String snake(String key) {
    String s = snakeCache.get(key);
    if (s == null) {
      s = snakeForm(key);
      if (snakeCache.size() < SNAKE_CACHE_MAX) {
        snakeCache.put(key, s);
      }
    }
    return s;
  }

  private final class Resolution {
    private final Set<String> keys;
    private final String[][] candidates;

    Resolution(Set<String> keys, String[][] candidates) {
      this.keys = keys;
      this.candidates = candidates;
    }

    boolean covers(Map<String, ?> payload) {
      if (payload.size() > keys.size()) {
        return false;
      }
      for (String k : payload.keySet()) {
        if (!keys.contains(k)) {
          return false;
        }
      }
      return true;
    }

    Map<String, String> apply(Map<String, ?> payload, Map<String, String> fallback) {
      Map<String, String> md = new LinkedHashMap<>(names.size() * 2 + 2);
      for (int i = 0; i < candidates.length; i++) {
        String name = names.get(i);
        boolean resolved = false;
        Object v = null;
        for (String k : candidates[i]) {
          v = payload.get(k);
          if (v != null || payload.containsKey(k)) {
            resolved = true;
            break;
          }
        }
        if (!resolved) {
          v = fallback.get(name);
        }
        if (v != null) {
          md.put(name, TextForm.of(v));
        }
      }
      md.put(LEVEL, LevelDeriver.level(payload));
      return md;
    }
  }

  /**
   * The snake form of SRC-9 ({@code EventUuid}→{@code event_uuid}, {@code USER_ID}→{@code user_id},
   * {@code SourceIP}→{@code source_ip}, {@code HTTPServer}→{@code http_server}): an {@code _} is
   * inserted at each ASCII lower-case/digit → upper-case boundary and before the last capital of an
   * upper-case run that is followed by a lower-case letter; then the whole name is lower-cased.
   */
  public static String snakeForm(String name) {
    int n = name.length();
    StringBuilder sb = null;
    for (int i = 0; i < n; i++) {
      char c = name.charAt(i);
      boolean underscore = false;
      if (i > 0 && isUpper(c)) {
        char p = name.charAt(i - 1);
        if (isLower(p) || (p >= '0' && p <= '9')) {
          underscore = true;
        } else if (isUpper(p) && i + 1 < n && isLower(name.charAt(i + 1))) {
          underscore = true;
        }
      }
      if (underscore || isUpper(c) || c > 0x7F) {
        if (sb == null) {
          sb = new StringBuilder(n + 4).append(name, 0, i);
        }
        if (underscore) {
          sb.append('_');
        }
        if (isUpper(c)) {
          sb.append((char) (c + 32));
        } else {
          sb.append(Character.toLowerCase(c));
        }
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? name : sb.toString();
  }

  private static boolean isUpper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  private static boolean isLower(char c) {
    return c >= 'a' && c <= 'z';
  }
}
