// Outside the family modules, nothing tests a family's name or a network's id: the code asks the network's family
// instead (docs/networks.md, "Network families: add a family"). Each source file of src/ is parsed (comments and texts for people are left alone) and
// every string literal that is exactly a family name or a network id of the embedded sandbox, and every object key
// that is one (a table by family or network), is an offence, outside the family folders, their two registries and
// the contract (whose list of families the registries follow).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { NETWORK_FAMILIES } from '../../src/contract/index.js';
import { sandboxNetworks } from '../helpers/networks.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const NAMES = new Set<string>([...NETWORK_FAMILIES, ...sandboxNetworks.all.map((n) => n.id)]);
/** The family modules (the simulator is one as a source of networks), their registries, and the contract. */
const ALLOWED = [
  'src/contract/',
  'src/codecs/families/',
  ...NETWORK_FAMILIES.map((family) => `src/sandbox/chains/${family}/`),
  'src/sandbox/chains/simulated/',
  'src/sandbox/chains/families.ts',
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each string literal that is a name, and each object key that is one, with its line. */
export function offences(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && NAMES.has(node.text)) at(node, `'${node.text}'`);
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) && NAMES.has(node.name.text)) {
      at(node, `the key ${node.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no code outside the family modules tests a family name or a network id', () => {
  const found = sources(join(root, 'src'))
    .map((path) => relative(root, path).replaceAll('\\', '/'))
    .filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)))
    .flatMap((file) => offences(file, readFileSync(join(root, file), 'utf8')));
  assert.deepEqual(found, [], 'ask the network\'s family (src/codecs/families/, src/sandbox/chains/families.ts) instead');
});

test('the scan finds a test of a family name, a network id and a table of them', () => {
  const code = "if (network.family === 'evm') x();\nconst SLIP44 = { ETHEREUM: 60 };\nswitch (f) { case 'tron': }\n// 'bitcoin' in a comment\nconst text = 'a TRON (T…)';";
  assert.deepEqual(offences('x.ts', code), ["x.ts:1: 'evm'", 'x.ts:2: the key ETHEREUM', "x.ts:3: 'tron'"]);
});
