// `npm run gateway`: the sandbox gateway alone, configured by environment (README, "Configuration").
import { closeOnSignals, startBanner } from './banner.js';
import { loadConfig } from './config.js';
import { startGateway } from './server.js';
import { FolderLockedError } from './storage/folder-lock.js';

try {
  const running = await startGateway(loadConfig());
  console.log(startBanner(running, 'pay-checkout sandbox gateway'));
  closeOnSignals(running);
} catch (error) {
  if (!(error instanceof FolderLockedError)) throw error;
  console.error(error.message);
  process.exit(1);
}
