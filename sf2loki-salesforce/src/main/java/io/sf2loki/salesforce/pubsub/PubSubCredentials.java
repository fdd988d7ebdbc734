package io.sf2loki.salesforce.pubsub;

import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.OrgIdResolver;
import io.sf2loki.salesforce.auth.TokenProvider;
import java.util.Objects;

/**
 * What a Pub/Sub call needs from the org's authentication (SPEC PS-2, AUTH-6, AUTH-8): the current
 * token, conditional invalidation, and the org id ({@code tenantid}).
 */
public interface PubSubCredentials {
  /**
   * The current access token (cached or freshly minted, AUTH-1/AUTH-2).
   *
   * @throws AuthException when minting fails
   * @throws InterruptedException if interrupted
   */
  AccessToken token() throws AuthException, InterruptedException;

  /** AUTH-6: discards {@code used} if it is still the cached token. */
  void invalidate(AccessToken used);

  /**
   * The org id (AUTH-8).
   *
   * @throws AuthException when it cannot be resolved
   * @throws InterruptedException if interrupted
   */
  String orgId() throws AuthException, InterruptedException;

  /** Credentials backed by the org's token provider and org-id resolver. */
  static PubSubCredentials of(TokenProvider tokens, OrgIdResolver orgIds) {
    Objects.requireNonNull(tokens, "tokens");
    Objects.requireNonNull(orgIds, "orgIds");
    return new PubSubCredentials() {
      @Override
      public AccessToken token() throws AuthException, InterruptedException {
        return tokens.token();
      }

      @Override
      public void invalidate(AccessToken used) {
        tokens.invalidate(used);
      }

      @Override
      public String orgId() throws AuthException, InterruptedException {
        return orgIds.orgId();
      }
    };
  }
}
