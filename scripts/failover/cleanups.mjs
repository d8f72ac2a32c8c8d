// Everything a failover run starts (clusters, gateways, the receiver, connections), stopped in reverse order however
// the run ends: each module that starts something registers how to stop it here.
const cleanups = [];

export const onCleanUp = (cleanup) => void cleanups.push(cleanup);

/** How many are registered now: what `cleanUp(keep)` leaves standing. */
export const registeredCleanUps = () => cleanups.length;

export async function cleanUp(keep = 0) {
  while (cleanups.length > keep) await cleanups.pop()().catch((error) => console.error(`cleanup: ${error.message}`));
}

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
