// `cem analyze` (npm run build:lib): the custom-elements manifest of <pay-checkout> from the element's JSDoc, as
// the package ships it (dist/custom-elements.json, schema 2.1), and what is generated from it: JSX typings
// (dist/jsx/) and VS Code custom data (dist/vscode.*-custom-data.json).
import { customElementVsCodePlugin } from 'custom-element-vs-code-integration';
import { jsxTypes } from './scripts/jsx-types.mjs';

const SCHEMA_VERSION = '2.1.0';

/** src/checkout/x.ts → dist/lib/checkout/x.js: the manifest names the files that ship, not the sources. */
const shippedPath = (path) => path.replace(/^src\/(.*)\.ts$/, 'dist/lib/$1.js');

/**
 * What the analyzer cannot see on its own: each event's class. An event class declares its name as
 * `static readonly eventName = '…'` (src/checkout/events.ts); the element's `@fires` tags name the events, and a
 * `dispatchEvent(new XEvent(…))` the analyzer finds adds a nameless entry typed XEvent. One entry per event,
 * named, described and typed.
 */
function shippedManifest() {
  return {
    name: 'pay-checkout-shipped-manifest',
    packageLinkPhase({ customElementsManifest: manifest }) {
      manifest.schemaVersion = SCHEMA_VERSION;
      const eventClasses = new Map();
      for (const module of manifest.modules) {
        for (const declaration of module.declarations ?? []) {
          const eventName = declaration.members?.find((m) => m.static && m.name === 'eventName')?.default;
          if (declaration.kind === 'class' && eventName) eventClasses.set(eventName.replace(/^['"]|['"]$/g, ''), { name: declaration.name, module: module.path });
        }
      }
      const classNames = new Map([...eventClasses].map(([event, cls]) => [cls.name, event]));
      for (const module of manifest.modules) {
        for (const declaration of module.declarations ?? []) {
          if (!declaration.events) continue;
          const byName = new Map();
          for (const event of declaration.events) {
            const name = event.name ?? classNames.get(event.type?.text);
            if (!name) throw new Error(`${declaration.name}: an event without a name (${JSON.stringify(event)})`);
            byName.set(name, { ...byName.get(name), ...event, name, description: byName.get(name)?.description ?? event.description });
          }
          declaration.events = [...byName.values()].map((event) => {
            const cls = eventClasses.get(event.name);
            if (!cls) throw new Error(`${declaration.name}: no event class declares eventName '${event.name}'`);
            return { ...event, type: { text: cls.name, references: [{ name: cls.name, module: cls.module }] } };
          });
        }
      }
      // Public is the schema's default: the analyzer writes it for a property of `static properties` (pay-checkout.ts)
      // and not for a class field; the manifest leaves it out for both.
      for (const module of manifest.modules) {
        for (const declaration of module.declarations ?? []) for (const member of declaration.members ?? []) if (member.privacy === 'public') delete member.privacy;
      }
      // Last: every module reference in the manifest points into dist/.
      const rewrite = (value) => {
        if (Array.isArray(value)) return value.forEach(rewrite);
        if (!value || typeof value !== 'object') return;
        for (const [key, child] of Object.entries(value)) {
          if ((key === 'path' || key === 'module') && typeof child === 'string') value[key] = shippedPath(child);
          else rewrite(child);
        }
      };
      rewrite(manifest.modules);
    },
  };
}

export default {
  globs: ['src/checkout/**/*.ts'],
  exclude: ['src/checkout/**/*.d.ts'],
  outdir: 'dist',
  litelement: true,
  plugins: [
    shippedManifest(),
    jsxTypes({ outdir: 'dist/jsx', libraryIndex: '../lib/checkout/index.js', reexport: { react: '../lib/react/index.js', preact: '../lib/checkout/define.js' } }),
    customElementVsCodePlugin({ outdir: 'dist', htmlFileName: 'vscode.html-custom-data.json', cssFileName: 'vscode.css-custom-data.json' }),
  ],
};
