package io.sf2loki.sim.elf;

/** Salesforce record id helpers: 15-character ids and their 18-character case-safe form. */
public final class SalesforceIds {
  private static final String BASE62 =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  private static final String SUFFIX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

  private SalesforceIds() {}

  /**
   * A 15-character id: the 3-character key prefix, then {@code n} in base 62 left-padded with zeros
   * to 12 characters.
   */
  public static String id15(String prefix, long n) {
    if (prefix.length() != 3) {
      throw new IllegalArgumentException("key prefix must have 3 characters");
    }
    char[] out = new char[15];
    prefix.getChars(0, 3, out, 0);
    long v = Math.abs(n);
    for (int i = 14; i >= 3; i--) {
      out[i] = BASE62.charAt((int) (v % 62));
      v /= 62;
    }
    return new String(out);
  }

  /** The 18-character case-safe id of a 15-character id (Salesforce's checksum suffix). */
  public static String id18(String id15) {
    if (id15.length() != 15) {
      throw new IllegalArgumentException("need a 15-character id");
    }
    StringBuilder sb = new StringBuilder(18).append(id15);
    for (int block = 0; block < 3; block++) {
      int bits = 0;
      for (int i = 0; i < 5; i++) {
        char c = id15.charAt(block * 5 + i);
        if (c >= 'A' && c <= 'Z') {
          bits |= 1 << i;
        }
      }
      sb.append(SUFFIX.charAt(bits));
    }
    return sb.toString();
  }
}
