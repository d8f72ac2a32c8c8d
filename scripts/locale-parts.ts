// Which modules of the element read the locale registry (src/checkout/i18n/locales.ts), and the one part of each
// catalog each of them reads. Both builds of the element give each of them a registry of that part alone, so that a
// bundler keeps each part where it is read (docs/i18n.md): the script-tag build in vite.config.ts (localeParts), and
// dist/lib/ for the merchants' bundlers in scripts/lib-locale-parts.ts.

/** The registry, from the repository's root. */
export const REGISTRY = 'src/checkout/i18n/locales.ts';

/** Each module that reads the registry (from src/checkout/, without its extension) and the part it reads. */
export const READERS: Record<string, string> = {
  'i18n/index': 'script',
  'i18n/later': 'later',
  'wallets/browser-wallet': 'wallet',
  'pay-checkout/views/from-exchange': 'exchange',
};

/** The registry's languages, from its lines, each with its catalog (`./locales/en`, from the registry's folder). */
export function registryLines(registry: string): { tag: string; catalog: string }[] {
  const lines = [...registry.matchAll(/^export \* as (\w+) from '(\.\/locales\/[\w-]+)\.js';$/gm)].map(([, tag, catalog]) => ({ tag: tag!, catalog: catalog! }));
  if (!lines.length) throw new Error(`no \`export * as <tag> from './locales/<tag>.js'\` line in ${REGISTRY}: update scripts/locale-parts.ts`);
  return lines;
}
