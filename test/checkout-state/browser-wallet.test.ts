// The browser wallet's pure parts: a wallet's errors in the customer's words, exact atomic amounts, the transfer
// that sends exactly what is due (a value for the chain's coin, an ERC-20 transfer for a token).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { atomic } from '../../src/checkout/pay-checkout/state.js';
import { errorOf, transferOf } from '../../src/checkout/wallets/browser-wallet.js';

test('EIP-1193 and EIP-1474 errors each get their own words', () => {
  assert.equal(errorOf({ code: 4001, message: 'User rejected the request.' }), 'refused');
  assert.equal(errorOf({ code: 4902 }), 'wrongChain');
  for (const code of [4100, 4900, 4901]) assert.equal(errorOf({ code }), 'closed');
  assert.equal(errorOf({ code: -32000, message: 'insufficient funds for gas * price + value' }), 'insufficientFunds');
  assert.equal(errorOf({ code: -32603, message: 'execution reverted: ERC20: transfer amount exceeds balance' }), 'insufficientFunds');
  assert.equal(errorOf(new Error('boom')), 'failed');
  assert.equal(errorOf(undefined), 'failed');
});

test('amounts become atomic units exactly, never through a float', () => {
  assert.equal(atomic('0.003933', 18), 3_933_000_000_000_000n);
  assert.equal(atomic('20.22', 6), 20_220_000n);
  assert.throws(() => atomic('0.1234567', 6));
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 18 }), (units, decimals) => {
      const digits = units.toString().padStart(decimals + 1, '0');
      const amount = decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
      assert.equal(atomic(amount, decimals), units);
    }),
  );
});

test("the chain's coin is a value transfer to the address; a token is transfer(address, uint256) to its contract", () => {
  const to = '0x52908400098527886E0F7030069857D2E4169EE7';
  assert.deepEqual(transferOf('0xfrom', { address: to }, { token_contract: null, decimals: 18 }, '0.5'), { from: '0xfrom', to, value: '0x6f05b59d3b20000' });
  const token = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
  const tx = transferOf('0xfrom', { address: to }, { token_contract: token, decimals: 6 }, '20.22');
  assert.equal(tx.to, token);
  assert.equal(tx.value, '0x0');
  assert.equal(tx.data, `0xa9059cbb${'0'.repeat(24)}${to.slice(2).toLowerCase()}${(20_220_000).toString(16).padStart(64, '0')}`);
  assert.equal(tx.data!.length, 2 + 8 + 128);
});
