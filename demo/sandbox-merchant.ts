// The sandbox merchant as this process last knew it: the demo signs its links, checks its redirects and its webhooks
// with its credentials, and a roll of its client secret from the portal changes them.
import type { MerchantClient, MerchantClientOptions } from '../src/merchant/index.js';

/** A merchant's credentials, as the SDK takes them. */
export type Credentials = Pick<MerchantClientOptions, 'clientId' | 'clientSecret' | 'merchantKey'>;

export class SandboxMerchant {
  #credentials: Credentials;
  #client: MerchantClient;

  constructor(
    credentials: Credentials,
    private readonly clientFor: (credentials: Credentials) => MerchantClient,
  ) {
    this.#credentials = credentials;
    this.#client = clientFor(credentials);
  }

  get credentials(): Credentials {
    return this.#credentials;
  }

  /** The SDK signed in as the sandbox merchant. */
  get client(): MerchantClient {
    return this.#client;
  }

  /** After a roll from the portal: the new secret, and an SDK that signs with it. */
  secretRolled(clientSecret: string): void {
    this.#credentials = { ...this.#credentials, clientSecret };
    this.#client = this.clientFor(this.#credentials);
  }
}
