// The package as adopters get it: `npm pack` (the package README swapped in as prepack does), then the tarball
// installed into fresh folders from the local npm cache. An element-only install holds no server stack; importing
// an event class bundles to a few hundred bytes; React 19 and Preact type the tag and its events from the
// generated typings; the SDK runs from the tarball on this Node (and Deno or Bun when they are installed).
// `npm test` builds first; alone, this file builds what is missing.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { useTestGateway } from '../helpers/fixture.js';
import { installOffline, type OfflineInstall } from '../helpers/offline-install.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_STACK = ['@electric-sql/pglite', 'pg', 'hono', '@hono/node-server', '@noble/hashes', '@noble/curves', '@scure/bip32', '@scure/base'];
const EVENT_IMPORT_BUDGET = 5 * 1024;

interface Manifest {
  version: string;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const run = (command: string, args: string[], cwd: string) => spawnSync(command, args, { cwd, encoding: 'utf8' });
/** The same without blocking this process (which may be the gateway the command talks to), never rejecting. */
const runAsync = (command: string, args: string[], cwd: string) =>
  promisify(execFile)(command, args, { cwd, encoding: 'utf8' }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ status: error.code ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );

function pack(into: string): { tarball: string; files: string[] } {
  for (const built of ['dist/lib/merchant/index.js', 'dist/pay-checkout.js', 'dist/jsx/react.d.ts', 'dist/openapi.json']) {
    if (!existsSync(join(root, built))) {
      assert.equal(run('npm', ['run', 'build:lib'], root).status, 0, 'npm run build:lib');
      break;
    }
  }
  // prepack builds and swaps the README; the build is there, so only the swap is done here, and undone whatever happens.
  assert.equal(run('node', ['scripts/package-readme.mjs', 'use'], root).status, 0, 'README swap');
  try {
    const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], root);
    assert.equal(packed.status, 0, packed.stderr);
    const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
    return { tarball: join(into, filename), files: files.map((f) => f.path) };
  } finally {
    execFileSync('node', ['scripts/package-readme.mjs', 'restore'], { cwd: root });
  }
}

describe('the packed package, installed', () => {
  const work = mkdtempSync(join(tmpdir(), 'pay-checkout-pack-'));
  let tarball: string;
  let files: string[];
  let manifest: Manifest;
  let elementOnly: OfflineInstall;
  const fresh = (name: string) => {
    const dir = join(work, name);
    mkdirSync(dir);
    return dir;
  };
  const local = () => ({
    name: 'pay-checkout',
    tarball,
    dependencies: manifest.dependencies,
    peerDependencies: manifest.peerDependencies,
    optional: Object.keys(manifest.peerDependenciesMeta ?? {}),
  });

  before(() => {
    ({ tarball, files } = pack(work));
    manifest = JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Manifest;
    elementOnly = installOffline(fresh('element'), [], local());
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('ships what adopters use, and none of the repository', () => {
    for (const file of ['LICENSE', 'README.md', 'package.json', 'dist/pay-checkout.js', 'dist/pay-checkout.js.map', 'dist/custom-elements.json', 'dist/jsx/react.d.ts', 'dist/jsx/preact.d.ts', 'dist/vscode.html-custom-data.json', 'dist/openapi.json', 'dist/lib/merchant/index.d.ts', 'dist/lib/react/index.js']) {
      assert.ok(files.includes(file), `${file} is in the tarball`);
    }
    assert.deepEqual(files.filter((f) => /^(src|test|demo|bench|scripts)\/|^dist\/demo\/|^dist\/lib\/sandbox\//.test(f)), []);
  });

  it('has its own README, every link absolute, every link into the package naming a file it ships', () => {
    const readme = execFileSync('tar', ['-xOzf', tarball, 'package/README.md'], { encoding: 'utf8' });
    assert.equal(readme, readFileSync(join(root, 'docs/npm-readme.md'), 'utf8'));
    assert.notEqual(readme, readFileSync(join(root, 'README.md'), 'utf8'), 'the repository README is back in place');
    const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    assert.ok(links.length > 3);
    assert.deepEqual(links.filter((l) => !/^https:\/\//.test(l)), [], 'relative links');
    for (const link of links.filter((l) => l.startsWith('https://cdn.jsdelivr.net/npm/pay-checkout/'))) {
      assert.ok(files.includes(link.slice('https://cdn.jsdelivr.net/npm/pay-checkout/'.length)), `${link} is shipped`);
    }
  });

  it('installs for the element alone without the gateway’s server stack', () => {
    const installed = new Set(elementOnly.packages);
    assert.deepEqual(SERVER_STACK.filter((name) => installed.has(name)), []);
    assert.ok(installed.has('lit') && installed.has('lean-qr'));
    assert.ok(!installed.has('qrcode'), 'qrcode (and its command-line stack) is the demo’s, not the package’s');
    console.log(`element-only install: ${elementOnly.packages.length} packages, ${(elementOnly.bytes / 1e6).toFixed(1)} MB`);
  });

  it(`bundles an import of an event class in under ${EVENT_IMPORT_BUDGET} bytes (sideEffects)`, async () => {
    const bundle = async (code: string) => {
      const result = await build({ stdin: { contents: code, resolveDir: elementOnly.dir }, bundle: true, minify: true, format: 'esm', write: false, logLevel: 'silent' });
      return result.outputFiles[0]!.contents.length;
    };
    const event = await bundle("import { PayCheckoutSuccessEvent } from 'pay-checkout'; console.log(PayCheckoutSuccessEvent);");
    const defined = await bundle("import 'pay-checkout/define';");
    console.log(`esbuild, minified: PayCheckoutSuccessEvent ${event} B; pay-checkout/define ${defined} B`);
    assert.ok(event < EVENT_IMPORT_BUDGET, `${event} B`);
    assert.ok(defined > 50_000, 'the define entry still brings the element');
  });

  it('bundles the SDK for a runtime without Node built-ins (edge workers)', async () => {
    const result = await build({
      stdin: { contents: "export { MerchantClient, verifyWebhook, verifyRedirect } from 'pay-checkout/merchant';", resolveDir: elementOnly.dir },
      bundle: true,
      platform: 'neutral',
      mainFields: ['module', 'main'],
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    // esbuild would have refused an import it cannot resolve on a neutral platform; none is left for the runtime either.
    assert.doesNotMatch(result.outputFiles[0]!.text, /\bfrom\s*["']node:|\brequire\(["']/);
  });

  describe('the SDK from the tarball', () => {
    const gw = useTestGateway();

    const script = (clientSecret: string) => `
      import { MerchantClient, signRedirect, verifyRedirect } from 'pay-checkout/merchant';
      const [baseUrl, clientId, clientSecret, merchantKey] = JSON.parse(process.argv.at(-1));
      const client = new MerchantClient({ baseUrl, clientId, clientSecret, merchantKey, timeoutMs: 10000 });
      const link = await client.createPaymentLink({
        merchant_order_id: 'pack-' + Date.now(), amount: 1000, currency: 'VND', description: 'Packed', expiry_hours: 1,
        order_details: [{ id: 'a', name: 'A', price: 1000, quantity: 1 }],
        success_url: 'https://shop.example/ok', failure_url: 'https://shop.example/ko',
      });
      const read = await client.getPaymentLink(link.payment_link_ref);
      const redirect = await signRedirect('https://shop.example/ok', { payment_link_ref: read.payment_link_ref, merchant_order_id: read.merchant_order_id, status: 'paid' }, ${JSON.stringify(clientSecret)});
      console.log(JSON.stringify({ ref: link.payment_link_ref, status: read.status, verified: (await verifyRedirect(redirect, clientSecret)) !== undefined }));
    `;

    const runtimes: [string, (file: string, args: string) => string[]][] = [['node', (file, args) => [file, args]]];
    for (const [name, argv] of [
      ['deno', (file: string, args: string) => ['run', '--allow-net', '--allow-env', '--allow-read', file, args]],
      ['bun', (file: string, args: string) => ['run', file, args]],
    ] as const) {
      if (run('sh', ['-c', `command -v ${name}`], root).status === 0) runtimes.push([name, argv]);
      else console.log(`${name} is not installed: the SDK is run on Node only`);
    }

    for (const [runtime, argv] of runtimes) {
      it(`creates and reads a link on ${runtime} (ESM)`, async () => {
        const file = join(elementOnly.dir, `sdk-${runtime}.mjs`);
        writeFileSync(file, script(gw.credentials.clientSecret));
        const { clientId, clientSecret, merchantKey } = gw.credentials;
        const result = await runAsync(runtime, argv(file, JSON.stringify([gw.url, clientId, clientSecret, merchantKey])), elementOnly.dir);
        assert.equal(result.status, 0, result.stderr);
        const outcome = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { ref: string; status: string; verified: boolean };
        assert.match(outcome.ref, /^pl_/);
        assert.deepEqual({ status: outcome.status, verified: outcome.verified }, { status: 'active', verified: true });
      });
    }
  });

  describe('JSX typings', () => {
    const tsc = (dir: string) => runAsync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], dir).then((r) => r.stdout + r.stderr);
    const project = (name: string, registry: string[], compilerOptions: Record<string, unknown>, sources: Record<string, string>) => {
      const dir = fresh(name);
      installOffline(dir, registry, local());
      const options = { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'], ...compilerOptions };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: Object.keys(sources) }));
      for (const [file, text] of Object.entries(sources)) writeFileSync(join(dir, file), text);
      return dir;
    };
    /** The line numbers tsc reports errors on, for each file. */
    const errorLines = (output: string, file: string) => [...output.matchAll(new RegExp(`${file}\\((\\d+),\\d+\\): error`, 'g'))].map((m) => Number(m[1]));

    // Both projects are written and checked at once; the tests read the results.
    let react: Promise<string>;
    let preact: Promise<string>;
    before(() => {
      const good = [
        "import { PayCheckout } from 'pay-checkout/react';",
        "import type { PayCheckoutSuccessEvent } from 'pay-checkout';",
        'export const Tag = () => <pay-checkout payment-link-ref="pl_1" theme="dark" onpay-checkout-success={(e) => e.detail.url} />;',
        'export const Typed = () => <pay-checkout paymentLinkRef="pl_1" onpay-checkout-failure={(e) => e.detail.reason === "cancelled"} />;',
        'export const Wrapped = () => <PayCheckout paymentLinkRef="pl_1" onPayCheckoutSuccess={(e: PayCheckoutSuccessEvent) => e.preventDefault()} />;',
      ].join('\n');
      const bad = [
        "import 'pay-checkout/react';",
        "import type { PayCheckoutErrorEvent } from 'pay-checkout';",
        'export const WrongEvent = () => <pay-checkout payment-link-ref="pl_1" onpay-checkout-success={(e: PayCheckoutErrorEvent) => e.detail.code} />;',
        'export const WrongDetail = () => <pay-checkout payment-link-ref="pl_1" onpay-checkout-success={(e) => e.detail.reason} />;',
        'export const WrongTheme = () => <pay-checkout theme="blue" />;',
        'export const WrongRef = () => <pay-checkout payment-link-ref={42} />;',
      ].join('\n');
      react = tsc(project('react', ['react', '@types/react', '@lit/react'], { jsx: 'react-jsx' }, { 'good.tsx': good, 'bad.tsx': bad }));
      preact = tsc(
        project('preact', ['preact'], { jsx: 'react-jsx', jsxImportSource: 'preact' }, {
          'good.tsx': "import 'pay-checkout/preact';\nexport const Tag = () => <pay-checkout payment-link-ref=\"pl_1\" onpay-checkout-back={(e) => e.detail.url} />;\n",
          'bad.tsx': "import 'pay-checkout/preact';\nexport const Wrong = () => <pay-checkout onpay-checkout-back={(e) => e.detail.payment} />;\n",
        }),
      );
    });

    it('types <pay-checkout>, its attributes and events, in React 19, and the @lit/react wrapper', async () => {
      const output = await react;
      assert.deepEqual(errorLines(output, 'good.tsx'), [], output);
      assert.deepEqual([...new Set(errorLines(output, 'bad.tsx'))], [3, 4, 5, 6], output);
    });

    it('types <pay-checkout> and its events in Preact', async () => {
      const output = await preact;
      assert.deepEqual(errorLines(output, 'good.tsx'), [], output);
      assert.deepEqual(errorLines(output, 'bad.tsx'), [2], output);
    });
  });
});
