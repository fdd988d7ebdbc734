package io.sf2loki.core.transform;

import io.sf2loki.core.shape.TextForm;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** One compiled rule (SPEC XF-2…XF-6). Immutable and thread-safe. */
sealed interface Rule
    permits Rule.Hash, Rule.Mask, Rule.DropField, Rule.RegexReplace, Rule.DropRow {

  /**
   * Applies the rule in place.
   *
   * @return true when the record is to be dropped ({@code drop_row} only)
   */
  boolean apply(Map<String, Object> record);

  /**
   * XF-2: first 16 lowercase hex characters of SHA-256(UTF-8(salt + text form)). Each thread reuses
   * its own digest and output buffer (XF-15); no memo: one SHA-256 block costs about what a memo
   * miss costs, so a memo only pays off on mostly repeated values and doubles the cost on unique
   * ones.
   */
  final class Hash implements Rule {
    private static final HexFormat HEX = HexFormat.of(); // lowercase, no delimiters
    private static final ThreadLocal<Sha256> SHA256 = ThreadLocal.withInitial(Sha256::new);
    private final String[] fields;
    private final String salt;
    private final byte[] saltBytes;
    private final boolean prefixSafe;

    Hash(List<String> fields, String salt) {
      this.fields = fields.toArray(String[]::new);
      this.salt = salt;
      SHA256.get(); // fail at load, not on the first row, if the JRE lacks SHA-256
      // UTF-8(salt + text) = UTF-8(salt) + UTF-8(text) unless the salt ends inside a pair.
      this.prefixSafe =
          salt.isEmpty() || !Character.isHighSurrogate(salt.charAt(salt.length() - 1));
      this.saltBytes = salt.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean apply(Map<String, Object> record) {
      for (String f : fields) {
        Object v = record.get(f);
        if (v != null) {
          record.put(f, hash(TextForm.of(v)));
        }
      }
      return false;
    }

    String hash(String text) {
      byte[] input = (prefixSafe ? text : salt + text).getBytes(StandardCharsets.UTF_8);
      // this thread's digest is reset: digest() resets it, and nothing can throw in between
      Sha256 s = SHA256.get();
      if (prefixSafe) {
        s.digest.update(saltBytes);
      }
      s.digest.update(input);
      return HEX.formatHex(s.sum(), 0, 8);
    }

    /** One thread's SHA-256 digest and the buffer its sums are written to. */
    private static final class Sha256 {
      final MessageDigest digest;
      private final byte[] sum = new byte[32];

      Sha256() {
        try {
          digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException("SHA-256 is required of every JRE", e);
        }
      }

      /** Completes the digest into this thread's buffer (and resets it). */
      byte[] sum() {
        try {
          digest.digest(sum, 0, sum.length);
        } catch (DigestException e) {
          throw new IllegalStateException("a 32-byte buffer holds a SHA-256 sum", e);
        }
        return sum;
      }
    }
  }

  /** XF-3: e-mail keeps the domain, strict IPv4 keeps three octets, anything else {@code ***}. */
  final class Mask implements Rule {
    private final String[] fields;

    Mask(List<String> fields) {
      this.fields = fields.toArray(String[]::new);
    }

    @Override
    public boolean apply(Map<String, Object> record) {
      for (String f : fields) {
        Object v = record.get(f);
        if (v != null) {
          record.put(f, mask(TextForm.of(v)));
        }
      }
      return false;
    }

    static String mask(String text) {
      int at = text.indexOf('@');
      if (at >= 0) {
        return "***@" + text.substring(at + 1);
      }
      int lastDot = ipv4LastDot(text);
      return lastDot < 0 ? "***" : text.substring(0, lastDot) + ".x";
    }

    /** The index of the third dot of a strict dotted quad, or -1 when {@code s} is not one. */
    static int ipv4LastDot(String s) {
      int octets = 0;
      int i = 0;
      int lastDot = -1;
      int n = s.length();
      while (true) {
        int start = i;
        int value = 0;
        while (i < n && i - start < 4 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
          value = value * 10 + (s.charAt(i) - '0');
          i++;
        }
        int len = i - start;
        if (len == 0 || len > 3 || value > 255 || (len > 1 && s.charAt(start) == '0')) {
          return -1;
        }
        octets++;
        if (octets == 4) {
          return i == n ? lastDot : -1;
        }
        if (i >= n || s.charAt(i) != '.') {
          return -1;
        }
        lastDot = i;
        i++;
      }
    }
  }

  /** XF-4: removes the listed keys. */
  final class DropField implements Rule {
    private final String[] fields;

    DropField(List<String> fields) {
      this.fields = fields.toArray(String[]::new);
    }

    @Override
    public boolean apply(Map<String, Object> record) {
      for (String f : fields) {
        record.remove(f);
      }
      return false;
    }
  }

  /**
   * XF-5: every match in the text form of each present, non-null field replaced; recent values come
   * from a per-thread memo (XF-15).
   */
  final class RegexReplace implements Rule {
    private final String[] fields;
    private final ValueMemo memo;

    RegexReplace(List<String> fields, PortableRegex regex, Replacement replacement) {
      this.fields = fields.toArray(String[]::new);
      this.memo = new ValueMemo(text -> regex.replaceAll(text, replacement));
    }

    @Override
    public boolean apply(Map<String, Object> record) {
      for (String f : fields) {
        Object v = record.get(f);
        if (v != null) {
          record.put(f, memo.apply(TextForm.of(v)));
        }
      }
      return false;
    }
  }

  /**
   * XF-6: drops the record iff every glob matches its field's text form; an absent field reads as
   * {@code ""}, a present null as {@code None} (1.x).
   */
  final class DropRow implements Rule {
    private final String[] fields;
    private final Glob[] globs;

    DropRow(Map<String, String> match) {
      this.fields = match.keySet().toArray(String[]::new);
      this.globs = match.values().stream().map(Glob::compile).toArray(Glob[]::new);
    }

    @Override
    public boolean apply(Map<String, Object> record) {
      for (int i = 0; i < fields.length; i++) {
        Object v = record.get(fields[i]);
        String text;
        if (v != null) {
          text = TextForm.of(v);
        } else {
          text = record.containsKey(fields[i]) ? "None" : "";
        }
        if (!globs[i].matches(text)) {
          return false;
        }
      }
      return true;
    }
  }
}
