// The address a request came from, as the limits count it (docs/security.md, "Limits"): the socket's peer, never a
// header a client writes (X-Forwarded-For would let one client count as many).
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';

/** The peer's IP address (an IPv4-mapped IPv6 address as its IPv4 form); `in-process` for a request with no socket. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context: only its bindings are read
export function clientAddress(c: Context<any>): string {
  const peer = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
  return peer === undefined ? 'in-process' : peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}
