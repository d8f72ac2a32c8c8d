// JSX typings of the package's custom elements, generated from the custom-elements manifest
// (custom-elements-manifest.config.mjs runs this after the manifest is complete). React 19 and Preact both set a
// custom element's known properties as properties, the rest as attributes, and take `on<event-name>` as a listener
// for that event, so one set of props serves both: the attributes, the properties behind them, and a typed
// handler per event.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FRAMEWORKS = {
  react: { module: 'react', base: (cls) => `React.DetailedHTMLProps<React.HTMLAttributes<${cls}>, ${cls}>`, prelude: "import type * as React from 'react';" },
  preact: { module: 'preact', base: (cls) => `JSX.HTMLAttributes<${cls}>`, prelude: '' },
};

const comment = (text, indent) => (text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').split('\n').join(`\n${indent} * `)} */\n` : '');
const quote = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** The element classes and event classes the typings name, with the props of each tag. */
function describe(manifest) {
  const elements = [];
  for (const module of manifest.modules) {
    for (const declaration of module.declarations ?? []) {
      if (!declaration.customElement || !declaration.tagName) continue;
      const lines = [];
      const fields = new Map((declaration.members ?? []).filter((m) => m.kind === 'field' && !m.static && !m.privacy).map((m) => [m.name, m]));
      for (const attribute of declaration.attributes ?? []) {
        const type = attribute.type?.text ?? 'string';
        lines.push([attribute.description, quote(attribute.name), type]);
        if (attribute.fieldName && attribute.fieldName !== attribute.name && fields.has(attribute.fieldName)) {
          lines.push([attribute.description, quote(attribute.fieldName), type]);
        }
      }
      for (const event of declaration.events ?? []) {
        lines.push([event.description, quote(`on${event.name}`), `(event: ${event.type.text}) => void`]);
      }
      elements.push({
        tag: declaration.tagName,
        cls: declaration.name,
        doc: declaration.summary ?? declaration.description,
        props: lines,
        events: (declaration.events ?? []).map((e) => e.type.text),
      });
    }
  }
  return elements;
}

function typings(elements, framework, libraryIndex) {
  const { module, base, prelude } = FRAMEWORKS[framework];
  const names = [...new Set(elements.flatMap((e) => [e.cls, ...e.events]))].sort();
  let out = `// Generated from dist/custom-elements.json by scripts/jsx-types.mjs: do not edit.\n`;
  if (prelude) out += `${prelude}\n`;
  if (framework === 'preact') out += `import type { JSX } from 'preact';\n`;
  out += `import type { ${names.join(', ')} } from '${libraryIndex}';\n\n`;
  for (const element of elements) {
    out += `/** The attributes, properties and events of <${element.tag}>. */\nexport interface ${element.cls}Props {\n`;
    for (const [description, name, type] of element.props) out += `${comment(description, '  ')}  ${name}?: ${type};\n`;
    out += `}\n\n`;
  }
  out += `declare module '${module}' {\n  namespace JSX {\n    interface IntrinsicElements {\n`;
  for (const element of elements) out += `${comment(element.doc, '      ')}      '${element.tag}': ${base(element.cls)} & ${element.cls}Props;\n`;
  out += `    }\n  }\n}\n`;
  return out;
}

/** A custom-elements-manifest analyzer plugin writing `<outdir>/<framework>.d.ts` for each framework. */
export function jsxTypes({ outdir, libraryIndex, reexport = {} }) {
  return {
    name: 'pay-checkout-jsx-types',
    packageLinkPhase({ customElementsManifest }) {
      const elements = describe(customElementsManifest);
      mkdirSync(outdir, { recursive: true });
      for (const framework of Object.keys(FRAMEWORKS)) {
        const extra = reexport[framework] ? `\nexport * from '${reexport[framework]}';\n` : '';
        writeFileSync(join(outdir, `${framework}.d.ts`), typings(elements, framework, libraryIndex) + extra);
      }
    },
  };
}
