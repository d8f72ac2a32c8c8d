// Browser tests of <pay-checkout> (test/checkout) in three real engines against a real sandbox gateway, and of the
// merchant portal's views (test/portal-views) with fixed data.
// Run through `npm run test:browser` (scripts/test-browser.mjs): it loads this file in a node started with
// tsx (the gateway plugin is TypeScript), starts WebKitWebDriver under Xvfb and says which engines to use.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { BrowsingContext } from 'puppeteer-core/internal/bidi/core/BrowsingContext.js';
import { gatewayPlugin, stubRefusals } from './test/helpers/wtr-gateway.ts';

// Launch options from shared/BROWSERS.md: the system's browsers, nothing downloaded.
const launchers = {
  chromium: () =>
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      },
    }),
  // Firefox (like WebKitGTK below) runs with a dark system theme: wtr cannot emulate media over WebDriver BiDi.
  firefox: () =>
    puppeteerLauncher({
      launchOptions: {
        browser: 'firefox',
        executablePath: '/usr/bin/firefox-esr',
        headless: true,
        extraPrefsFirefox: { 'layout.css.prefers-color-scheme.content-override': 0 },
      },
    }),
  // WebKitWebDriver runs under xvfb-run, started by the script; it refuses any browserName, so none is sent.
  // MiniBrowser runs in dark mode: wtr cannot emulate media over WebDriver. So two engines check the dark colours
  // (hosted) and that an embedded card ignores them (test/checkout/layout.test.ts); Chromium stays light.
  webkit: () => named('WebKitGTK', webdriverLauncher({
      automationProtocol: 'webdriver',
      hostname: '127.0.0.1',
      port: Number(process.env.WEBKIT_DRIVER_PORT ?? 4445),
      path: '/',
      logLevel: 'error',
      capabilities: {
        // wtr sends each test page's navigation without awaiting it, so one that outlasts webdriver's request time-out
        // (120 s, a CI run beside the e2e suite met one) ended the whole run; wtr's own start and finish time-outs
        // guard the page instead.
        pageLoadStrategy: 'none',
        'webkitgtk:browserOptions': { binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', args: ['--automation', '--dark-mode'] },
      },
    })),
};

/**
 * Puppeteer 25 sends `emulation.setScreenOrientationOverride` with every viewport it sets, and Firefox ESR 140 does not
 * know the command: every page failed before its first test. No test turns the screen, so an engine without the command
 * loses nothing: its refusal is tolerated as puppeteer tolerates that of `emulation.setTouchOverride`.
 */
const setScreenOrientationOverride = BrowsingContext.prototype.setScreenOrientationOverride;
BrowsingContext.prototype.setScreenOrientationOverride = async function (...args) {
  try {
    await setScreenOrientationOverride.apply(this, args);
  } catch (error) {
    if (!String(error?.message).includes('unknown command')) throw error;
  }
};

/** The webdriver launcher names itself after the browserName capability, which WebKitGTK must not get. */
function named(name, launcher) {
  const initialize = launcher.initialize.bind(launcher);
  launcher.initialize = async (...args) => {
    await initialize(...args);
    launcher.name = name;
  };
  return launcher;
}

const wanted = (process.env.PAY_CHECKOUT_BROWSERS ?? 'chromium,firefox,webkit').split(',').filter(Boolean);
for (const name of wanted) if (!(name in launchers)) throw new Error(`PAY_CHECKOUT_BROWSERS: unknown engine ${name}; use ${Object.keys(launchers).join(', ')}`);

const browsers = wanted.map((name) => launchers[name]());

export default {
  // The element's tests, and the portal's views rendered with fixed data (no gateway: they answer their own fetches).
  files: ['test/checkout/**/*.test.ts', 'test/portal-views/**/*.test.ts'],
  // Lit without its dev-mode warnings: tests run what ships.
  nodeResolve: { exportConditions: ['production', 'default'] },
  browsers,
  // Test files of one engine run one at a time: a resilience test restarts that engine's gateway.
  concurrency: 1,
  concurrentBrowsers: Number(process.env.PAY_CHECKOUT_CONCURRENT_BROWSERS ?? 3),
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 180_000,
  // A test's bound is a guard against a hang, above the 20 s a wait in it may take (test/checkout/helpers/element.ts).
  testFramework: { config: { timeout: 60_000 } },
  middleware: [stubRefusals],
  plugins: [esbuildPlugin({ ts: true, tsconfig: new URL('./tsconfig.json', import.meta.url).pathname }), gatewayPlugin(browsers)],
};
