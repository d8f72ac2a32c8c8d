// The demo forms' refusal state (demo/scripts/lib/field-errors.ts): errors by field, cleared as the field changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldErrors } from '../../demo/scripts/lib/field-errors.js';

describe('FieldErrors', () => {
  it('joins several errors of one field, and clears a field and the fields inside it when it changes', () => {
    const errors = new FieldErrors();
    errors.show([
      { path: 'amount', message: 'must be a whole number of VND' },
      { path: 'amount', message: 'must equal the order total' },
      { path: 'order_details.0.price', message: 'must not be negative' },
      { path: 'order_details.1.name', message: 'must not be empty' },
      { path: 'currency', message: 'must be VND' },
    ]);
    assert.equal(errors.get('amount'), 'must be a whole number of VND; must equal the order total');
    assert.equal(errors.changed('description'), false, 'a field without an error changes nothing');
    assert.equal(errors.changed('amount'), true);
    assert.equal(errors.get('amount'), undefined);
    assert.equal(errors.get('currency'), 'must be VND', 'the other fields keep theirs');
    assert.equal(errors.changed('order_details.0'), true);
    assert.deepEqual(errors.paths, ['order_details.1.name', 'currency']);
    assert.equal(errors.changed('order_details.1.nam'), false, 'a prefix of a name is another field');
  });

  it('keeps the problem while a field it names is still wrong, and drops it with the last one', () => {
    const errors = new FieldErrors();
    const problem = {
      title: 'Unprocessable Content',
      status: 422,
      detail: 'The request has 2 invalid fields.',
      errors: [
        { path: 'amount', message: 'too much' },
        { path: 'description', message: 'must not be empty' },
      ],
    };
    errors.show(problem.errors, problem);
    errors.changed('amount');
    assert.deepEqual(errors.problem?.errors, [{ path: 'description', message: 'must not be empty' }]);
    errors.changed('description');
    assert.equal(errors.problem, undefined);

    const conflict = { title: 'Conflict', status: 409, detail: 'Order 1 holds no money yet.' };
    errors.show([], conflict);
    errors.changed('amount');
    assert.equal(errors.problem, conflict, 'a problem about no field stays until the next submit');
    errors.show([]);
    assert.equal(errors.problem, undefined);
  });
});
