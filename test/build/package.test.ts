// The package as a merchant installs it: every entry of package.json "exports" exists with its types, the Node
// SDK loads through its public name, and the custom-elements manifest (schema 2.x, valid, every event named and
// typed, every path a shipped file) describes the tag, as the VS Code data generated from it does.
// `npm test` builds first; alone, this file builds what is missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types: string; default: string }> };

function build([command, ...args]: [string, ...string[]], output: string) {
  if (existsSync(join(root, output))) return;
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}
build(['npm', 'run', 'build:modules'], 'dist/lib/merchant/index.js');
build(['npx', 'vite', 'build'], 'dist/pay-checkout.js');
build(['npx', 'cem', 'analyze'], 'dist/custom-elements.json');

test('every export of package.json points at a built file, with declarations for the modules', () => {
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const files = typeof target === 'string' ? [target] : [target.default, target.types];
    for (const file of files) {
      // A subpath pattern ("./pay-checkout/*", the script's chunks) maps to a folder: it must hold built files.
      if (file.endsWith('/*')) assert.ok(readdirSync(join(root, file.slice(0, -2))).length > 0, `${entry}: ${file} matches no file`);
      else assert.ok(existsSync(join(root, file)), `${entry}: ${file} is missing`);
    }
  }
});

test('the merchant SDK loads as pay-checkout/merchant', async () => {
  const sdk = (await import('pay-checkout/merchant' as string)) as Record<string, unknown>;
  for (const name of ['MerchantClient', 'signPaymentLinkBody', 'verifyWebhook', 'verifyRedirect']) {
    assert.equal(typeof sdk[name], 'function', `pay-checkout/merchant exports ${name}`);
  }
});

test('the custom elements manifest describes <pay-checkout> from its JSDoc', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'dist/custom-elements.json'), 'utf8')) as {
    modules: { declarations?: { tagName?: string; attributes?: { name?: string }[]; events?: { name?: string }[]; cssParts?: unknown[] }[] }[];
  };
  const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'pay-checkout');
  assert.ok(element, 'a declaration with tagName pay-checkout');
  const attributes = element.attributes?.map((a) => a.name) ?? [];
  for (const name of ['payment-link-ref', 'api-base', 'embedded', 'locale', 'pmt-channel', 'pmt-method']) assert.ok(attributes.includes(name), name);
  const events = element.events?.map((e) => e.name) ?? [];
  for (const name of ['ready', 'status', 'success', 'failure', 'back', 'error']) assert.ok(events.includes(`pay-checkout-${name}`), name);
  assert.ok((element.cssParts?.length ?? 0) > 10);
});

test('the manifest is valid against the custom-elements-manifest schema 2.x, its events named and typed, its paths shipped', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'dist/custom-elements.json'), 'utf8')) as {
    schemaVersion: string;
    modules: { path: string; declarations?: { events?: { name?: string; type?: { text: string; references?: { module: string }[] } }[] }[] }[];
  };
  const schema = JSON.parse(readFileSync(join(root, 'node_modules/custom-elements-manifest/schema.json'), 'utf8')) as { definitions: object };
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  assert.ok(validate(manifest), JSON.stringify(validate.errors, null, 2));
  // The schema lets any declaration pass as a plain class: hold custom elements to their own definition.
  const customElement = ajv.compile({ $ref: '#/definitions/CustomElementDeclaration', definitions: schema.definitions });
  const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => (d as { customElement?: boolean }).customElement);
  assert.equal(elements.length, 1);
  for (const element of elements) assert.ok(customElement(element), JSON.stringify(customElement.errors, null, 2));
  assert.match(manifest.schemaVersion, /^2\./);
  const events = manifest.modules.flatMap((m) => m.declarations ?? []).flatMap((d) => d.events ?? []);
  assert.equal(events.length, 6);
  for (const event of events) {
    assert.ok(event.name, `an event without a name: ${JSON.stringify(event)}`);
    assert.match(event.type?.text ?? '', /^PayCheckout\w+Event$/, `${event.name} has its class as type`);
  }
  const paths = [...manifest.modules.map((m) => m.path), ...events.flatMap((e) => e.type?.references?.map((r) => r.module) ?? [])];
  for (const path of paths) {
    assert.match(path, /^dist\/lib\//);
    assert.ok(existsSync(join(root, path)), `${path} is built`);
  }
});

test('the VS Code custom data describes the tag and its attributes', () => {
  const data = JSON.parse(readFileSync(join(root, 'dist/vscode.html-custom-data.json'), 'utf8')) as { tags: { name: string; attributes: { name: string }[] }[] };
  const tag = data.tags.find((t) => t.name === 'pay-checkout');
  assert.ok(tag);
  assert.deepEqual(tag.attributes.map((a) => a.name).sort(), ['api-base', 'embedded', 'locale', 'payment-link-ref', 'pmt-channel', 'pmt-method', 'theme']);
});
