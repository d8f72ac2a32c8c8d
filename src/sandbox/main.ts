// `npm run gateway`: the sandbox gateway alone, configured by environment (README, "Configuration").
import { closeOnSignals, startBanner } from './banner.js';
import { loadConfig } from './config.js';
import { startGateway } from './server.js';
import { FolderLockedError } from './storage/folder-lock.js';

try {
  const config = loadConfig();
  const dev = config.sandboxChain === 'anvil' ? await (await import('./chains/evm/dev-chain.js')).startDevChain(config) : undefined;
  const running = await startGateway(dev?.config ?? config);
  console.log(startBanner(running, 'pay-checkout sandbox gateway', { extra: dev?.banner }));
  closeOnSignals(running, dev?.node.stop);
} catch (error) {
  if (!(error instanceof FolderLockedError)) throw error;
  console.error(error.message);
  process.exit(1);
}
