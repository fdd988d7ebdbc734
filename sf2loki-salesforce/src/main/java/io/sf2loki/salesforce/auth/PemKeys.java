package io.sf2loki.salesforce.auth;

import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Parses PEM RSA private keys with the JDK only (AUTH-3): PKCS#8 ({@code BEGIN PRIVATE KEY}) as is,
 * PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) by wrapping it into a PKCS#8 {@code PrivateKeyInfo}. Error
 * messages never contain key material (AUTH-10).
 */
public final class PemKeys {
  private static final String PKCS8 = "PRIVATE KEY";
  private static final String PKCS1 = "RSA PRIVATE KEY";

  /** DER of {@code AlgorithmIdentifier { rsaEncryption (1.2.840.113549.1.1.1), NULL }}. */
  private static final byte[] RSA_ALGORITHM_ID = {
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xf7,
    0x0d,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00
  };

  private PemKeys() {}

  /**
   * Parses a PEM RSA private key.
   *
   * @param pem the PEM text (surrounding whitespace and other PEM blocks are ignored)
   * @return the key
   * @throws IllegalArgumentException when no unencrypted RSA private key block is found or the key
   *     does not decode; the message names the problem, never the content
   */
  public static RSAPrivateKey parseRsaPrivateKey(String pem) {
    if (pem == null || pem.isBlank()) {
      throw new IllegalArgumentException("private_key is empty");
    }
    if (pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
      throw new IllegalArgumentException(
          "private_key is encrypted; provide an unencrypted PKCS#8 or PKCS#1 RSA key");
    }
    byte[] der;
    try {
      byte[] pkcs8 = block(pem, PKCS8);
      if (pkcs8 != null) {
        der = pkcs8;
      } else {
        byte[] pkcs1 = block(pem, PKCS1);
        if (pkcs1 == null) {
          throw new IllegalArgumentException(
              "private_key is not a PEM RSA private key (expected BEGIN PRIVATE KEY or BEGIN RSA"
                  + " PRIVATE KEY)");
        }
        der = wrapPkcs1(pkcs1);
      }
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("private_key")) {
        throw e;
      }
      throw new IllegalArgumentException("private_key PEM body is not valid base64");
    }
    try {
      return (RSAPrivateKey)
          KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException | ClassCastException e) {
      throw new IllegalArgumentException(
          "private_key does not decode as an RSA private key ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  /** Wraps a PKCS#1 {@code RSAPrivateKey} DER into a PKCS#8 {@code PrivateKeyInfo} DER. */
  static byte[] wrapPkcs1(byte[] pkcs1) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {0x02, 0x01, 0x00}); // version INTEGER 0
    body.writeBytes(RSA_ALGORITHM_ID);
    body.write(0x04); // OCTET STRING
    body.writeBytes(derLength(pkcs1.length));
    body.writeBytes(pkcs1);
    byte[] content = body.toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x30); // SEQUENCE
    out.writeBytes(derLength(content.length));
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] derLength(int len) {
    if (len < 0x80) {
      return new byte[] {(byte) len};
    }
    int bytes = len > 0xFFFFFF ? 4 : len > 0xFFFF ? 3 : len > 0xFF ? 2 : 1;
    byte[] out = new byte[bytes + 1];
    out[0] = (byte) (0x80 | bytes);
    for (int i = bytes; i >= 1; i--) {
      out[i] = (byte) (len & 0xFF);
      len >>>= 8;
    }
    return out;
  }

  private static byte[] block(String pem, String type) {
    String begin = "-----BEGIN " + type + "-----";
    String end = "-----END " + type + "-----";
    int b = pem.indexOf(begin);
    if (b < 0) {
      return null;
    }
    int e = pem.indexOf(end, b + begin.length());
    if (e < 0) {
      throw new IllegalArgumentException("private_key PEM block has no END line");
    }
    return Base64.getMimeDecoder().decode(pem.substring(b + begin.length(), e).strip());
  }
}
