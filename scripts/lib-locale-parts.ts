// `npm run build:modules`, after tsc: dist/lib/'s catalogs split by part, as the script-tag build splits them
// (vite.config.ts, localeParts), for the merchants who bundle dist/lib/ with a bundler of their own. A bundler places
// a whole module in one chunk: with tsc's one module a language, every part of it would come with the element, the
// gateway's pages' words included. So each catalog (i18n/locales/<tag>.js) becomes one module a part
// (i18n/locales/<tag>/<part>.js) and re-exports them, and each module that reads the registry (scripts/locale-parts.ts)
// imports a registry of its part alone (i18n/locales.<part>.js), of the same shape as the registry: each chunk's words
// stay in that chunk, and the pages' reach no bundle of the element (test/build/lib-bundle.test.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { READERS, REGISTRY, registryLines } from './locale-parts.js';

const lib = 'dist/lib/checkout';
const i18n = join(lib, 'i18n');
const languages = registryLines(readFileSync(REGISTRY, 'utf8'));

for (const { catalog } of languages) {
  const file = join(i18n, `${catalog}.js`);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const parts = source.statements.map((statement) => {
    const [declaration, ...others] = ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ? statement.declarationList.declarations : [];
    if (!declaration || others.length || !ts.isIdentifier(declaration.name)) {
      throw new Error(`${file}: "${statement.getText(source).slice(0, 60)}" is not an \`export const <part> = {...}\` of tsc's (run tsc -p tsconfig.build.json first)`);
    }
    return { name: declaration.name.text, text: statement.getText(source) };
  });
  mkdirSync(join(i18n, catalog), { recursive: true });
  for (const { name, text } of parts) writeFileSync(join(i18n, catalog, `${name}.js`), `// The ${name} part of src/checkout/i18n/${catalog.slice(2)}.ts (scripts/lib-locale-parts.ts).\n${text}\n`);
  writeFileSync(file, parts.map(({ name }) => `export { ${name} } from './${catalog.split('/').at(-1)}/${name}.js';\n`).join(''));
}

for (const part of new Set(Object.values(READERS))) {
  const lines = languages.map(({ tag, catalog }) => `export * as ${tag} from '${catalog}/${part}.js';\n`);
  writeFileSync(join(i18n, `locales.${part}.js`), `// The ${part} part of each catalog of the registry (locales.js), for its readers (scripts/lib-locale-parts.ts).\n${lines.join('')}`);
}

const registry = resolve(i18n, 'locales.js');
for (const [reader, part] of Object.entries(READERS)) {
  const file = join(lib, `${reader}.js`);
  const text = readFileSync(file, 'utf8');
  let found = 0;
  const split = text.replace(/(\bfrom ')([^']+)'/g, (whole, from: string, specifier: string) => {
    if (resolve(dirname(file), specifier) !== registry) return whole;
    found += 1;
    return `${from}${specifier.replace(/locales\.js$/, `locales.${part}.js`)}'`;
  });
  if (found !== 1) throw new Error(`${file} imports the registry (${relative(lib, registry)}) ${found} times, not once: update scripts/locale-parts.ts`);
  writeFileSync(file, split);
}
