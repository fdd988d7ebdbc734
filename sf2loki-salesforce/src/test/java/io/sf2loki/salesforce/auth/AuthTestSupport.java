package io.sf2loki.salesforce.auth;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/** RSA keys and PEM text for auth tests. */
final class AuthTestSupport {
  private AuthTestSupport() {}

  /** One 2048-bit key pair per JVM run of the test class (generation is slow-ish). */
  static KeyPair rsaKeyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String pkcs8Pem(KeyPair kp) {
    return pem("PRIVATE KEY", kp.getPrivate().getEncoded());
  }

  /**
   * PKCS#1 PEM: the JDK's PKCS#8 encoding of a 2048-bit RSA key is a fixed 26-byte header followed
   * by the PKCS#1 {@code RSAPrivateKey}.
   */
  static String pkcs1Pem(KeyPair kp) {
    byte[] pkcs8 = kp.getPrivate().getEncoded();
    return pem("RSA PRIVATE KEY", Arrays.copyOfRange(pkcs8, 26, pkcs8.length));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
