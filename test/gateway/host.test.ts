// HOST (docs/security.md): started without it, the gateway (`npm run gateway`) and the demo (`npm start`) listen
// on the loopback only, so another machine cannot reach them; HOST=0.0.0.0 opens them, and the demo's one-click
// sign-in is still not offered to the network. The probe is this machine's own non-loopback address, or, on a
// machine without one, the far end of a veth pair in a network namespace of its own.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { seedPgliteFolder } from '../helpers/pglite-image.js';

/** How a connection from "another machine" is made: straight to an address of this one, or from inside a namespace. */
interface Probe {
  address: string;
  /** Whether a TCP connection to `port` at `address` is accepted. */
  reaches(port: number): Promise<boolean>;
  close(): void;
}

function ownAddressProbe(address: string): Probe {
  return {
    address,
    reaches: (port) =>
      new Promise((resolve) => {
        const socket = connect({ host: address, port, timeout: 3000 });
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
        socket.once('timeout', () => (socket.destroy(), resolve(false)));
      }),
    close() {},
  };
}

function namespaceProbe(): Probe {
  const ns = `pcheck${process.pid}`;
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  ip('netns', 'add', ns);
  ip('link', 'add', `${ns}a`, 'type', 'veth', 'peer', 'name', `${ns}b`, 'netns', ns);
  ip('addr', 'add', '10.213.0.1/30', 'dev', `${ns}a`);
  ip('link', 'set', `${ns}a`, 'up');
  ip('-n', ns, 'addr', 'add', '10.213.0.2/30', 'dev', `${ns}b`);
  ip('-n', ns, 'link', 'set', `${ns}b`, 'up');
  return {
    address: '10.213.0.1',
    reaches: async (port) => {
      const script = `require('net').connect({host:'10.213.0.1',port:${port},timeout:3000}).on('connect',()=>process.exit(0)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))`;
      const child = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { stdio: 'ignore' });
      const [code] = (await once(child, 'exit')) as [number];
      return code === 0;
    },
    close: () => void ip('netns', 'delete', ns),
  };
}

function probe(): Probe {
  const own = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4');
  return own ? ownAddressProbe(own.address) : namespaceProbe();
}

/** Starts an entry point on a free port and resolves once it prints where it listens. */
async function start(entry: string, env: Record<string, string>) {
  const folder = await mkdtemp(join(tmpdir(), 'pay-checkout-host-'));
  await seedPgliteFolder(join(folder, 'pglite'));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, PORT: '0', PGLITE_DIR: join(folder, 'pglite'), DATABASE_URL: '', HOST: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  const exited = once(child, 'exit');
  while (!/Sandbox credentials/.test(out)) {
    const chunk = await Promise.race([once(child.stdout, 'data'), exited.then(() => undefined)]);
    if (!chunk) throw new Error(`${entry} exited before it listened:\n${out}`);
    out += chunk[0];
  }
  return {
    banner: out,
    port: Number(/on http:\/\/[^:]+:(\d+)/.exec(out)![1]),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(folder, { recursive: true, force: true });
    },
  };
}

describe('HOST', () => {
  let other: Probe;
  before(() => {
    other = probe();
  });
  after(() => other.close());

  for (const entry of ['src/sandbox/main.ts', 'demo/main.ts']) {
    it(`${entry} without HOST listens on the loopback only, and says so`, async () => {
      const server = await start(entry, {});
      try {
        assert.equal(await ownAddressProbe('127.0.0.1').reaches(server.port), true, 'this machine reaches it');
        assert.equal(await other.reaches(server.port), false, `another machine reaches it at ${other.address}`);
        assert.match(server.banner, /Only this machine reaches it \(HOST=127\.0\.0\.1\)/);
        assert.doesNotMatch(server.banner, new RegExp(other.address.replace(/\./g, '\\.')), 'no network address is advertised');
      } finally {
        await server.stop();
      }
    });
  }

  it('HOST=0.0.0.0 opens the demo to the network, says what that exposes, and offers no one-click sign-in there', async () => {
    const server = await start('demo/main.ts', { HOST: '0.0.0.0' });
    try {
      assert.equal(await other.reaches(server.port), true, 'the probe can reach an open port, so its "no" above is meaningful');
      assert.match(server.banner, /HOST=0\.0\.0\.0: open to your network/);
      assert.match(server.banner, /merchant API and the portal\s+need the merchant credentials/);
      assert.match(server.banner, new RegExp(`http://${other.address.replace(/\./g, '\\.')}:${server.port}/wallet`));
      // From this machine to its network address: the peer is that address, not the loopback.
      const options = (await (await fetch(`http://${other.address}:${server.port}/demo/sign-in`)).json()) as { sandbox_sign_in: boolean };
      assert.equal(options.sandbox_sign_in, false, 'the sandbox merchant needs its secret from the network');
    } finally {
      await server.stop();
    }
  });
});
