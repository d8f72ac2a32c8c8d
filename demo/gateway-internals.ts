// The gateway internals the demo's server side uses, all in this one file. The demo is mounted in the gateway's own
// process (demo/main.ts) and answers as the gateway does: the same reading of JSON bodies and the same problem details
// (src/sandbox/http), the same refusal, naming it, of the other environment's credentials and cookies, the path of the
// receiver the gateway takes as a loopback endpoint, and where the build puts the pages, for the compiled gateway too
// (src/sandbox/paths.ts). None of these is a merchant's concern, so neither the SDK nor the contract has them, and a
// copy here would drift from the gateway's.
export { readJsonObject, requireJsonType } from '../src/sandbox/http/body.js';
export { badRequest, parseWith, ProblemError, unauthorized } from '../src/sandbox/http/problem.js';
export { issueCredential, otherEnvironmentRefusal } from '../src/sandbox/services/merchant/credentials.js';
export { DEMO_RECEIVER_PATH } from '../src/sandbox/services/webhooks/targets.js';
export { DEMO_DIST } from '../src/sandbox/paths.js';
