// Where the gateway may send a merchant's webhooks: `https:` to public addresses only, checked when the endpoint is
// added and again at every delivery, on the addresses the host name resolves to then. The delivery connects to the
// very addresses that were checked, so a name cannot answer "public" to the check and "private" to the connection.
// Loopback (`http:` too) only when the sandbox runs with SANDBOX_ALLOW_LOCAL_WEBHOOKS=1, and then only for its own
// receivers: the one named at start (SANDBOX_WEBHOOK_URL) and the demo's. Any other loopback URL, added through the
// API or the portal, is refused: it would let a merchant's credentials post to, and probe, this machine's services.
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { WebhookUrlRule } from '../../../contract/index.js';

/** A host name's addresses (DNS and /etc/hosts, as the system resolves them). */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A URL the gateway will not send to, the rule it breaks, and why (the message of the `url` field). */
export class RefusedTarget extends Error {
  constructor(
    readonly rule: WebhookUrlRule,
    message: string,
  ) {
    super(message);
  }
}

/** A host name that did not resolve: refused when the endpoint is added; at delivery, the attempt is "unreachable". */
export class UnresolvedTarget extends Error {}

type Reach = 'public' | 'loopback' | 'internal';

/** Public unicast, loopback, or anything else: private, link-local (169.254.169.254), unique local, reserved … */
export function reachOf(address: string): Reach {
  let ip = ipaddr.parse(address);
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
  // IPv4-compatible (::/96, deprecated but still routed by some stacks to the IPv4 address): judged by that address.
  // Other forms that embed an IPv4 address (NAT64, 6to4, Teredo) have ranges of their own, none of them `unicast`.
  else if (ip instanceof ipaddr.IPv6 && ip.parts.slice(0, 6).every((part) => part === 0) && ip.range() === 'unicast') {
    const [high, low] = ip.parts.slice(6) as [number, number];
    ip = new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  const range = ip.range();
  return range === 'unicast' ? 'public' : range === 'loopback' ? 'loopback' : 'internal';
}

/** Which loopback URLs may be sent to; none when absent. */
export type LocalReceivers = (url: URL) => boolean;

/** Where the demo's own receiver listens (demo/routes/receiver.ts), on the gateway's port. */
export const DEMO_RECEIVER_PATH = '/demo/webhook-receiver';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The sandbox's own receivers: `webhookUrl` (SANDBOX_WEBHOOK_URL) exactly, and the demo's at a loopback name on `port`. */
export function sandboxReceivers(webhookUrl: string | undefined, port: number): LocalReceivers {
  const named = webhookUrl === undefined ? undefined : new URL(webhookUrl).href;
  return (url) =>
    url.href === named ||
    (url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname) && url.port === String(port) && url.pathname === DEMO_RECEIVER_PATH && !url.search && !url.hash);
}

export class WebhookTargets {
  constructor(
    /** The loopback receivers taken (SANDBOX_ALLOW_LOCAL_WEBHOOKS=1); none when absent. */
    private readonly local: LocalReceivers | undefined,
    private readonly resolve: Resolve = systemResolve,
  ) {}

  /**
   * The addresses a delivery to `url` may connect to; refuses (RefusedTarget) a URL that is not `https:` or whose
   * host has any address that is not public, and says so when the name does not resolve (UnresolvedTarget).
   */
  async addresses(url: URL): Promise<string[]> {
    const httpRule = "must be an https: URL; http: is taken only for the sandbox's own receivers (SANDBOX_WEBHOOK_URL, the demo's)";
    const local = this.local?.(url) ?? false;
    if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
      throw new RefusedTarget('https', this.local ? httpRule : 'must be an https: URL');
    }
    if (url.username || url.password) throw new RefusedTarget('no_credentials', 'must not carry a user name or password');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      addresses = await this.resolve(host).catch(() => []);
      // An http: URL must be shown to be loopback; an https: name that does not resolve is refused when the endpoint
      // is added (endpoints.ts), and is "unreachable" at a delivery.
      if (!addresses.length && url.protocol === 'http:') throw new RefusedTarget('https', httpRule);
      if (!addresses.length) throw new UnresolvedTarget(`must name a host that resolves to a public address (${host} does not resolve)`);
    }
    const reaches = new Set(addresses.map(reachOf));
    const named = isIP(host) ? '' : ` (${host} resolves to ${addresses.join(', ')})`;
    if (reaches.size === 1 && reaches.has('loopback') && local) return addresses;
    if (url.protocol === 'http:') throw new RefusedTarget('https', `${httpRule}${named}`);
    if (reaches.size !== 1 || !reaches.has('public')) {
      throw new RefusedTarget('public_address', `must reach a public address, not a private, loopback, link-local or reserved one${named}`);
    }
    return addresses;
  }
}

/** A `lookup` for http.request that answers with addresses already checked, whatever the name resolves to now. */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const answers = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, answers);
    else callback(null, answers[0]!.address, answers[0]!.family);
  };
}
