// The test gateway of a suite, said once: `const gw = useTestGateway()` in a describe (or at the top of a file) starts it
// before the suite's tests and closes it after them, as the `before`/`after` pair each file used to write.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, beforeEach } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';
import { accessToken } from './merchant-api.js';

export interface FixtureOptions extends TestGatewayOptions {
  /** Empty the tables before each test (TestGateway.reset), so no test sees another's rows. */
  reset?: boolean;
  /** Take a token for the sandbox merchant (`gw.token`): after start, and again after each `gw.reset()` (it empties the tokens). */
  token?: boolean;
}

export interface GatewayFixture extends TestGateway {
  /** The sandbox merchant's access token, with `token: true`. */
  readonly token: string;
}

/**
 * The handle's fields are there in tests and in the hooks registered after this call (node:test runs hooks in the order
 * they were registered). Options may be a function, for what an earlier `before` made (a node's URL, a price file).
 */
export function useTestGateway(options: FixtureOptions | (() => FixtureOptions | Promise<FixtureOptions>) = {}): GatewayFixture {
  let started: GatewayFixture | undefined;
  let wanted: FixtureOptions = {};
  let token: string | undefined;
  before(async () => {
    wanted = typeof options === 'function' ? await options() : options;
    const gw = await startTestGateway(wanted);
    const takeToken = async () => {
      if (wanted.token) token = await accessToken(gw.url, gw.credentials);
    };
    const { reset } = gw;
    started = Object.defineProperty(gw, 'token', { get: () => token ?? assert.fail('gw.token needs useTestGateway({ token: true })') }) as GatewayFixture;
    started.reset = async () => {
      await reset();
      await takeToken();
    };
    await takeToken();
  });
  beforeEach(async () => {
    if (wanted.reset) await started?.reset();
  });
  after(() => started?.close());
  return ready('the test gateway', () => started);
}

/** A path of the element's build (under dist/), built with `vite build` before the suite when it is missing. */
export function useBuilt(path: string): string {
  const file = fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));
  before(() => {
    if (!existsSync(file)) assert.equal(spawnSync('npx', ['vite', 'build'], { encoding: 'utf8' }).status, 0, 'vite build');
  });
  return file;
}

/**
 * What a `before` hook will make, as a value a suite can hold now: reading a field before it is made fails with a
 * message instead of an undefined (a handle read at the suite's top level, outside a test or a hook).
 */
export function ready<T extends object>(what: string, made: () => T | undefined): T {
  const value = (key: string | symbol) => made() ?? assert.fail(`${what} is not there yet: read .${String(key)} in a test or in a hook registered after it`);
  // The last two let a spread (`{ ...chain, rpcUrl }`) copy what was made.
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(value(key), key) as unknown,
    ownKeys: () => Reflect.ownKeys(value('…')),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(value(key), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
