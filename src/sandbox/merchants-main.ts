// `npm run merchants -- …` and the image's `node dist/gateway/merchants.js …`: the operator's merchants command
// (merchants-command.ts), on the gateway's own database.
import { runMerchantsCommand } from './merchants-command.js';

process.exitCode = await runMerchantsCommand(process.argv.slice(2));
