// A database that restarts or fails over is a 503 with Retry-After (the client sends the same request again, with the
// same Idempotency-Key), never a 500; any other unexpected error stays a 500.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asProblem } from '../../src/sandbox/http/problem.js';

const failure = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('a database that is switching over', () => {
  it('answers 503 with Retry-After for a refused or lost connection, a standby, a write refused as read-only and an unknown COMMIT', () => {
    const errors = [
      failure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      failure('08006', 'the server is read-only (a standby) and DATABASE_URL asks for read-write'),
      failure('57P01', 'terminating connection due to administrator command'),
      failure('25006', 'cannot execute INSERT in a read-only transaction'),
      failure('08007', 'transaction 812 may or may not have committed'),
      new Error('Connection terminated unexpectedly'),
    ];
    for (const error of errors) {
      const problem = asProblem(error);
      assert.equal(problem?.status, 503, error.message);
      assert.equal(problem.headers['Retry-After'], '1');
      assert.match(problem.detail, /same Idempotency-Key/);
    }
  });

  it('leaves any other error to the 500 handler', () => {
    assert.equal(asProblem(new Error('boom')), undefined);
    assert.equal(asProblem(failure('23505', 'duplicate key value violates unique constraint')), undefined);
  });
});
