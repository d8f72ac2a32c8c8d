// A loopback TCP proxy in front of a node: what the gateway sees of it. Frozen, it still accepts connections and
// never answers (as a node whose process is stopped, or a load balancer with no healthy node behind it), while the
// node itself goes on taking the customers' transactions. Refusing, it cuts every connection and each new one at once,
// as a database server that is stopped.
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  url: string;
  freeze(): void;
  refuse(): void;
  /** Back to passing connections through, after freeze() or refuse(). */
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  let frozen = false;
  let refusing = false;
  const sockets = new Set<Socket>();
  const held: Socket[] = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const pipe = (client: Socket) => {
    const upstream = connect(Number(port), hostname);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (refusing) client.destroy();
    else if (frozen) held.push(client);
    else pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    freeze() {
      frozen = true;
      // Connections kept alive would still carry answers: they are cut, and the new ones wait for nothing.
      for (const socket of sockets) if (!held.includes(socket)) socket.destroy();
    },
    refuse() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    thaw() {
      frozen = false;
      refusing = false;
      for (const socket of held.splice(0)) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
