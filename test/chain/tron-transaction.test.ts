// TRC-20 transfers on TRON (src/sandbox/chains/tron/transaction.ts) against published transactions: raw_data byte for
// byte, its txID, and signatures of known keys (RFC 6979 makes them exact). Then properties over random transfers:
// decoding gives back what was encoded, the signature recovers to the owner, and the broadcast hex is the Transaction
// message (raw_data in field 1, the signature in field 2).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { encodeAddress, tronAddressFromBytes } from '../../src/codecs/addresses.js';
import {
  MAX_EXPIRATION_MS,
  MAX_FEE_LIMIT_SUN,
  blockReference,
  decodeTrc20Transfer,
  encodeTrc20Transfer,
  signTransaction,
  signTxId,
  transactionId,
  type Trc20Transfer,
} from '../../src/sandbox/chains/tron/transaction.js';

/** TRON JSON writes addresses as 21 bytes of hex (`visible: false`). */
const address = (hex: string) => tronAddressFromBytes(hexToBytes(hex));

/** The address a 65-byte r || s || v signature of `txId` recovers to. */
function signer(txId: string, signature: string): string {
  const recovery = parseInt(signature.slice(128), 16);
  const publicKey = secp256k1.Signature.fromBytes(hexToBytes(signature.slice(0, 128)))
    .addRecoveryBit(recovery >= 27 ? recovery - 27 : recovery)
    .recoverPublicKey(hexToBytes(txId))
    .toBytes(true);
  return encodeAddress('tron', publicKey);
}

/**
 * BitGoJS, modules/sdk-coin-trx/test/unit/transactionBuilder/tokenTransferBuilder.ts ("from a signed token contract
 * call transaction", TOKEN_TXID in test/resources.ts): a signed transfer of 100 USDT on Shasta, as a node built it.
 */
const BITGO_SIGNED = {
  transfer: {
    owner: address('41c51fbeea78910b15b1d3e8a9b62914ca94d1a4ac'),
    contract: address('4142a1e39aefa49290f2b3f9ed688d7cecf86cd6e0'),
    to: address('418483618ca85c35a9b923d98bebca718f5a1db279'),
    amount: 100_000_000n,
    feeLimit: 15_000_000n,
    reference: { refBlockBytes: '578b', refBlockHash: '6113bb9ac351432b' },
    timestamp: 1674578167432,
    expiration: 1674581767432,
  } satisfies Trc20Transfer,
  rawDataHex:
    '0a02578b22086113bb9ac351432b4088eae7a6de305aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541c51fbeea78910b15b1d3e8a9b62914ca94d1a4ac12154142a1e39aefa49290f2b3f9ed688d7cecf86cd6e02244a9059cbb0000000000000000000000008483618ca85c35a9b923d98bebca718f5a1db2790000000000000000000000000000000000000000000000000000000005f5e10070888d8ca5de309001c0c39307',
  txID: 'fe21c49f4febd9089125e3a006943c145721d8fcb7ab84136f8c6663ff92f8ed',
  signature:
    '0775cde302689eb8293883c66a89b31e80d608bfc3ad3c283b64a490ea4cc712c55a2fd2e62c75843dd7e77d8c4cb52e0f371fbb29b332c259f8cb63c2e6195301',
};

/** BitGoJS, modules/sdk-coin-trx/test/resources.ts, SampleRawTokenSendTxn: an unsigned USDT transfer a node built. */
const BITGO_UNSIGNED = {
  transfer: {
    owner: address('41c25420255c2c5a2dd54ef69f92ef261e6bd4216a'),
    contract: address('4142a1e39aefa49290f2b3f9ed688d7cecf86cd6e0'),
    to: address('41e40b19afca3dde4ce8fcbc57ab41f8c326ab0cf2'),
    amount: 0x4190ab00n,
    feeLimit: 100_000_000n,
    reference: { refBlockBytes: 'cba3', refBlockHash: 'e14cc425da3cfd94' },
    timestamp: 1693357561339,
    expiration: 1693357620000,
  } satisfies Trc20Transfer,
  rawDataHex:
    '0a02cba32208e14cc425da3cfd9440a0f6ea9fa4315aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541c25420255c2c5a2dd54ef69f92ef261e6bd4216a12154142a1e39aefa49290f2b3f9ed688d7cecf86cd6e02244a9059cbb000000000000000000000000e40b19afca3dde4ce8fcbc57ab41f8c326ab0cf2000000000000000000000000000000000000000000000000000000004190ab0070fbabe79fa431900180c2d72f',
  txID: 'f8179caab4c781676cb33940948533e209dc7fe2135bbd6e00f60597862b86be',
};

describe('TRC-20 transfers against published transactions', () => {
  for (const [name, vector] of [
    ['a signed Shasta USDT transfer (BitGoJS)', BITGO_SIGNED],
    ['an unsigned USDT transfer built by a node (BitGoJS)', BITGO_UNSIGNED],
  ] as const) {
    it(`encodes ${name} to its raw_data_hex and txID, and decodes it back`, () => {
      const rawData = encodeTrc20Transfer(vector.transfer);
      assert.equal(bytesToHex(rawData), vector.rawDataHex);
      assert.equal(transactionId(rawData), vector.txID);
      assert.deepEqual(decodeTrc20Transfer(hexToBytes(vector.rawDataHex)), vector.transfer);
    });
  }

  it("reads the published signature as TRON does: it recovers to the transfer's owner", () => {
    assert.equal(signer(BITGO_SIGNED.txID, BITGO_SIGNED.signature), BITGO_SIGNED.transfer.owner);
  });

  it("signs as OneKey's firmware does (core/tests/test_apps.tron.sign_tx.py, test_trc20_transfer_signature)", () => {
    const privateKey = hexToBytes('8d596057e510b14cbb9bf24f88803a6d6dbd138dd303a62b175b9e6cc0f3f941');
    const rawData = encodeTrc20Transfer({
      owner: encodeAddress('tron', secp256k1.getPublicKey(privateKey, true)),
      contract: 'TXXLsmZo5yzbwGZLoh7znccamTQyJx6Z74',
      to: address('41f01fad0beb95a0a41cb1e68f384b33b846fe7d83'),
      amount: 1n,
      feeLimit: 1_000_000n,
      reference: { refBlockBytes: '3924', refBlockHash: '452512119e6a5a57' },
      timestamp: 1658231166581,
      expiration: 1658231226000,
    });
    const published = '42f6cd49e551de2c35ffc98eddcea9b16cdf67cbd7a286b508a763246ba239150a1ba902de24b49f721bbd28d0288e0a9334f52a71164d684aa1d16dd6c394ea1c';
    const { signature } = signTransaction(rawData, privateKey);
    // OneKey (like TronWeb) writes v as 27 + recovery id; java-tron's own form, and ours, is the recovery id.
    assert.equal(signature.slice(0, 128), published.slice(0, 128));
    assert.equal(parseInt(signature.slice(128), 16), parseInt(published.slice(128), 16) - 27);
  });

  it('signs a txID as Trust Wallet Core does (tests/chains/Tron/SignerTests.cpp, SignDirectTransferAsset)', () => {
    const signature = signTxId(
      hexToBytes('546a3d07164c624809cf4e564a083a7a7974bb3c4eff6bb3e278b0ca21083fcb'),
      hexToBytes('2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54'),
    );
    assert.equal(
      bytesToHex(signature),
      '77f5eabde31e739d34a66914540f1756981dc7d782c9656f5e14e53b59a15371603a183aa12124adeee7991bf55acc8e488a6ca04fb393b1a8ac16610eeafdfc00',
    );
  });

  it("writes the low-s twin of BitGoJS's high-s signature of the same txID (test/resources.ts, FirstExpectedSig)", () => {
    const signature = bytesToHex(
      signTxId(hexToBytes('80b8b9eaed51c8bba3b49f7f0e7cc5f21ac99a6f3e2893c663b544bf2c695b1d'), hexToBytes('2dbeac1c22849f47514445a56aef2ef164528a502de4bd289e23ea1e2d4c4b06')),
    );
    const published = 'bd08e6cd876bb573dd00a32870b58b70ea8b7908f5131686502589941bfa4fdda76b8c81bbbcfc549be6d4988657cea122df7da46c72041def2683d6ecb04a7401';
    const n = secp256k1.Point.CURVE().n;
    assert.equal(signature.slice(0, 64), published.slice(0, 64));
    assert.equal(BigInt(`0x${signature.slice(64, 128)}`), n - BigInt(`0x${published.slice(64, 128)}`));
    assert.equal(signature.slice(128), published.slice(128) === '01' ? '00' : '01');
  });

  it("refers to a block by its number's bytes 6..8 and its id's bytes 8..16", () => {
    // Block 3,111,739 of Trust Wallet Core's signer tests; its id is TRON's: the number in 8 bytes, then sha256 of the
    // header's raw_data from byte 8. Tangem's tests (blockchain-sdk-swift, BlockchainSdkTests/TronTests.swift) give the
    // bytes a transaction referring to it carries: 7b3b and b21ace8d6ac20e7e.
    const id = '00000000002f7b3bb21ace8d6ac20e7e943ce983aef3f62fe87788cfbcbc93d6';
    assert.deepEqual(blockReference({ number: 3_111_739, id: `0x${id}` }), { refBlockBytes: '7b3b', refBlockHash: 'b21ace8d6ac20e7e' });
    assert.deepEqual(blockReference({ number: 0x10000, id }).refBlockBytes, '0000');
  });
});

describe('TRC-20 transfers refuse what TRON would not take', () => {
  const valid = BITGO_UNSIGNED.transfer;
  const refused: Array<[string, Partial<Trc20Transfer>, RegExp]> = [
    ['a zero amount', { amount: 0n }, /^amount must be a bigint more than 0 and less than 2\^256$/],
    ['a negative amount', { amount: -1n }, /^amount /],
    ['an amount of 2^256', { amount: 2n ** 256n }, /^amount /],
    ['an amount as a number', { amount: 5 as unknown as bigint }, /^amount /],
    ['a zero fee limit (a certain OUT_OF_ENERGY)', { feeLimit: 0n }, /^feeLimit must be a bigint of sun more than 0 and at most 10000000000$/],
    ['a fee limit above the documented most', { feeLimit: MAX_FEE_LIMIT_SUN + 1n }, /^feeLimit /],
    ['an EVM address as owner', { owner: '0x8483618ca85c35a9b923d98bebca718f5a1db279' }, /^owner must be a TRON base58check address/],
    ['a recipient with a broken checksum', { to: `${valid.to.slice(0, -1)}${valid.to.endsWith('a') ? 'b' : 'a'}` }, /^to must be a TRON base58check address/],
    ['a Bitcoin-style base58check contract', { contract: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }, /^contract must be a TRON base58check address/],
    ['an expiration at the timestamp', { expiration: valid.timestamp }, /^expiration must be after timestamp, by at most 24 hours$/],
    ['an expiration more than 24 hours on', { expiration: valid.timestamp + MAX_EXPIRATION_MS + 1 }, /^expiration /],
    ['a fractional timestamp', { timestamp: 1.5, expiration: 2 }, /^timestamp /],
    ['a short ref_block_bytes', { reference: { refBlockBytes: 'cb', refBlockHash: valid.reference.refBlockHash } }, /^reference\.refBlockBytes /],
    ['an upper-case ref_block_hash', { reference: { refBlockBytes: 'cba3', refBlockHash: 'E14CC425DA3CFD94' } }, /^reference\.refBlockHash /],
  ];
  for (const [name, change, message] of refused) {
    it(`refuses ${name}, naming the field`, () => {
      assert.throws(() => encodeTrc20Transfer({ ...valid, ...change }), { name: 'RangeError', message });
    });
  }

  it('takes the bounds themselves', () => {
    const edges = { amount: 2n ** 256n - 1n, feeLimit: MAX_FEE_LIMIT_SUN, expiration: valid.timestamp + MAX_EXPIRATION_MS };
    assert.deepEqual(decodeTrc20Transfer(encodeTrc20Transfer({ ...valid, ...edges })), { ...valid, ...edges });
  });

  it('refuses a block reference that is not a block', () => {
    assert.throws(() => blockReference({ number: -1, id: '00'.repeat(32) }), /^RangeError: the reference block number/);
    assert.throws(() => blockReference({ number: 1, id: '00'.repeat(31) }), /^RangeError: the reference block id must be 32 bytes of hex$/);
  });

  it('decodes only what it writes', () => {
    const raw = BITGO_UNSIGNED.rawDataHex;
    // A memo (raw_data.data, field 10) is valid TRON and not something a refund carries.
    assert.throws(() => decodeTrc20Transfer(hexToBytes(`${raw}52026869`)), /holds more than a TRC-20 transfer/);
    // The recipient word with TRON's 0x41 in its padding, as some wallets write it: Solidity's decoder reverts on it.
    const dirty = raw.replace('a9059cbb000000000000000000000000e40b', 'a9059cbb000000000000000000000041e40b');
    assert.throws(() => decodeTrc20Transfer(hexToBytes(dirty)), /holds more than a TRC-20 transfer/);
    // A TRX TransferContract (contract type 1): BitGoJS test/resources.ts, UnsignedBuildTransaction.
    const trx =
      '0a0290e42208a018bf9892ddb13840e0c58ebadf2d5a66080112620a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412310a1541c4530f6bfa902b7398ac773da56106a15af15f9212154189ffaf9da8c6fae32189b2e6dce228249b1129aa18b60d7083878bbadf2d';
    assert.throws(() => decodeTrc20Transfer(hexToBytes(trx)), /^Error: raw_data\.contract is not a TriggerSmartContract$/);
    assert.throws(() => decodeTrc20Transfer(hexToBytes(raw.slice(0, -4))), /ends inside a varint/);
  });

  it("refuses to sign with a key that is not the owner's", () => {
    const rawData = encodeTrc20Transfer(BITGO_UNSIGNED.transfer);
    assert.throws(() => signTransaction(rawData, secp256k1.utils.randomSecretKey()), /the key does not sign for the owner T/);
  });
});

describe('TRC-20 transfers, properties', () => {
  const tronAddress = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((hash) => tronAddressFromBytes(Uint8Array.of(0x41, ...hash)));
  const privateKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((key) => secp256k1.utils.isValidSecretKey(key));
  const transfer = (owner: fc.Arbitrary<string>) =>
    fc.record({
      owner,
      contract: tronAddress,
      to: tronAddress,
      amount: fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }),
      feeLimit: fc.bigInt({ min: 1n, max: MAX_FEE_LIMIT_SUN }),
      reference: fc.record({
        refBlockBytes: fc.uint8Array({ minLength: 2, maxLength: 2 }).map(bytesToHex),
        refBlockHash: fc.uint8Array({ minLength: 8, maxLength: 8 }).map(bytesToHex),
      }),
      timestamp: fc.integer({ min: 1, max: 2 ** 52 }),
      lifetime: fc.integer({ min: 1, max: MAX_EXPIRATION_MS }),
    }).map(({ lifetime, reference, ...t }): Trc20Transfer => ({ ...t, reference: { ...reference }, expiration: t.timestamp + lifetime }));

  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(transfer(tronAddress), (t) => {
        assert.deepEqual(decodeTrc20Transfer(encodeTrc20Transfer(t)), t);
      }),
      { numRuns: 500 },
    );
  });

  it("signs so that the signature recovers to the owner, and sends raw_data and signature as Transaction's fields 1 and 2", () => {
    fc.assert(
      fc.property(
        privateKey.chain((key) => transfer(fc.constant(encodeAddress('tron', secp256k1.getPublicKey(key, true)))).map((t) => ({ key, t }))),
        ({ key, t }) => {
          const rawData = encodeTrc20Transfer(t);
          const signed = signTransaction(rawData, key);
          assert.equal(signed.txID, transactionId(rawData));
          assert.match(signed.signature, /^[0-9a-f]{128}0[01]$/);
          assert.equal(signer(signed.txID, signed.signature), t.owner);
          // Field 1 (tag 0x0a) with raw_data's varint length; field 2 (tag 0x12), 65 bytes (0x41).
          const length = rawData.length < 0x80 ? [rawData.length] : [(rawData.length & 0x7f) | 0x80, rawData.length >> 7];
          assert.equal(signed.transactionHex, `0a${bytesToHex(Uint8Array.from(length))}${bytesToHex(rawData)}1241${signed.signature}`);
        },
      ),
      { numRuns: 100 },
    );
  });
});
