package io.sf2loki.core.shape;

import java.math.BigDecimal;

/**
 * Python {@code repr(float)} rendering (SPEC SRC-7 float row): shortest round-trip digits,
 * positional when the decimal exponent is in −4…15 (always with a fractional part), otherwise
 * {@code d[.ddd]e±XX}.
 */
final class PyFloat {
  private PyFloat() {}

  /**
   * Appends the repr of a finite {@code d}. Callers handle NaN and infinities, whose spelling
   * differs between canonical JSON and text form.
   */
  static void appendFinite(double d, StringBuilder out) {
    if (d == 0.0) {
      out.append(Double.doubleToRawLongBits(d) < 0 ? "-0.0" : "0.0");
      return;
    }
    // JDK 19+ Double.toString yields the shortest uniquely-distinguishing digits, except that when
    // a single digit suffices it may pick a closer two-digit decimal (e.g. 4.9E-324 for 5e-324).
    String s = Double.toString(d);
    int len = s.length();
    int pos = 0;
    boolean negative = s.charAt(0) == '-';
    if (negative) {
      pos = 1;
    }
    int ePos = s.indexOf('E', pos);
    int mantEnd = ePos < 0 ? len : ePos;
    int exp10 = ePos < 0 ? 0 : Integer.parseInt(s, ePos + 1, len, 10);
    char[] digits = new char[mantEnd - pos];
    int nd = 0;
    int intLen = -1;
    for (int i = pos; i < mantEnd; i++) {
      char c = s.charAt(i);
      if (c == '.') {
        intLen = nd;
      } else {
        digits[nd++] = c;
      }
    }
    if (intLen < 0) {
      intLen = nd;
    }
    int lead = 0;
    while (lead < nd && digits[lead] == '0') {
      lead++;
    }
    int end = nd;
    while (end > lead && digits[end - 1] == '0') {
      end--;
    }
    // value = 0.D * 10^(intLen - lead + exp10); scientific exponent is one less.
    int sciExp = exp10 + intLen - lead - 1;
    String sig = new String(digits, lead, end - lead);
    if (sig.length() == 2) {
      String[] one = shorterCandidate(Math.abs(d), sig, sciExp);
      if (one != null) {
        sig = one[0];
        sciExp = Integer.parseInt(one[1]);
      }
    }
    if (negative) {
      out.append('-');
    }
    render(sig, sciExp, out);
  }

  /** A one-digit decimal that also round-trips and is closest to {@code abs}, or null. */
  private static String[] shorterCandidate(double abs, String sig, int sciExp) {
    int d0 = sig.charAt(0) - '0';
    String best = null;
    int bestExp = 0;
    BigDecimal bestDist = null;
    BigDecimal exact = new BigDecimal(abs);
    for (int k = 0; k < 2; k++) {
      int digit = d0 + k;
      int e = sciExp;
      if (digit == 10) {
        digit = 1;
        e++;
      }
      String cand = digit + "E" + e;
      if (Double.parseDouble(cand) == abs) {
        BigDecimal dist = new BigDecimal(cand).subtract(exact).abs();
        if (bestDist == null || dist.compareTo(bestDist) < 0) {
          bestDist = dist;
          best = Integer.toString(digit);
          bestExp = e;
        }
      }
    }
    return best == null ? null : new String[] {best, Integer.toString(bestExp)};
  }

  private static void render(String sig, int sciExp, StringBuilder out) {
    int n = sig.length();
    if (sciExp >= -4 && sciExp <= 15) {
      if (sciExp >= 0) {
        int intDigits = sciExp + 1;
        if (n <= intDigits) {
          out.append(sig);
          for (int i = n; i < intDigits; i++) {
            out.append('0');
          }
          out.append(".0");
        } else {
          out.append(sig, 0, intDigits).append('.').append(sig, intDigits, n);
        }
      } else {
        out.append("0.");
        for (int i = -1; i > sciExp; i--) {
          out.append('0');
        }
        out.append(sig);
      }
    } else {
      out.append(sig.charAt(0));
      if (n > 1) {
        out.append('.').append(sig, 1, n);
      }
      out.append('e').append(sciExp < 0 ? '-' : '+');
      int a = Math.abs(sciExp);
      if (a < 10) {
        out.append('0');
      }
      out.append(a);
    }
  }
}
