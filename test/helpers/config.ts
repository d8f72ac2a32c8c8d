// The problems a configuration is refused with (config.ts's ConfigError, one line each), for tests of what a start refuses.
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/sandbox/config.js';

/** The lines `loadConfig(env)` is refused with; fails the test when it is taken. */
export function configRefusal(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('the configuration was taken');
}
