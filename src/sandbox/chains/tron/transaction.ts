// A TRC-20 transfer as TRON takes it (DESIGN.md section 9.1): a TriggerSmartContract transaction whose raw_data is
// protobuf (java-tron's protocol/src/main/protos/core/Tron.proto and contract/smart_contract.proto, written by hand:
// only the fields a transfer uses), its txID = sha256(raw_data), a secp256k1 signature r || s || v, and the signed
// Transaction's hex that /wallet/broadcasthex takes. Checked against published transactions in
// test/chain/tron-transaction.test.ts.
// The TRON payout strategy (node-chain.ts) builds refunds with it.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { equalBytes } from '@noble/curves/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { encodeAddress, tronAddressBytes, tronAddressFromBytes } from '../../../codecs/addresses.js';

/** The bytes of a recent block a transaction names (TaPoS): java-tron refuses one whose block it does not hold. */
export interface BlockReference {
  /** Bytes 6..8 of the block's number, 4 hex digits. */
  refBlockBytes: string;
  /** Bytes 8..16 of the block's id, 16 hex digits. */
  refBlockHash: string;
}

/** A TRC-20 `transfer(to, amount)` from `owner`, in TRON's own terms. Addresses are base58check `T…`. */
export interface Trc20Transfer {
  owner: string;
  /** The TRC-20 contract called. */
  contract: string;
  to: string;
  /** In the token's smallest unit. */
  amount: bigint;
  /** The most TRX (in sun) the transaction may burn for energy. */
  feeLimit: bigint;
  reference: BlockReference;
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** Milliseconds since the epoch: a transaction not in a block by then never can be (there are no nonces). */
  expiration: number;
}

export interface SignedTransaction {
  /** sha256 of raw_data, hex: the transaction's hash on explorers and in `gettransactioninfobyid`. */
  txID: string;
  /** r || s || v, hex (65 bytes). */
  signature: string;
  /** The Transaction message (raw_data and signature), hex: the body of /wallet/broadcasthex. */
  transactionHex: string;
}

/**
 * 10,000 TRX in sun, the most TRON's developer documentation allows ("Fee Limit on Deploy/Execution"); the live ceiling
 * is the chain parameter `getMaxFeeLimit` (/wallet/getchainparameters), and a node refuses a fee_limit above it.
 */
export const MAX_FEE_LIMIT_SUN = 10_000_000_000n;
/** java-tron refuses an expiration more than 24 hours after its head block (MAXIMUM_TIME_UNTIL_EXPIRATION). */
export const MAX_EXPIRATION_MS = 24 * 60 * 60 * 1000;

const TRIGGER_SMART_CONTRACT = 31n;
const TYPE_URL = utf8ToBytes('type.googleapis.com/protocol.TriggerSmartContract');
/** transfer(address,uint256). */
const TRANSFER_SELECTOR = hexToBytes('a9059cbb');
const UINT256_LIMIT = 2n ** 256n;

/** The reference to a block as TronWeb builds it: its number's bytes 6..8 and its id's bytes 8..16. */
export function blockReference(block: { number: number; id: string }): BlockReference {
  if (!Number.isSafeInteger(block.number) || block.number < 0) throw new RangeError('the reference block number must be a whole number of 0 or more');
  const id = block.id.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{64}$/.test(id)) throw new RangeError('the reference block id must be 32 bytes of hex');
  return { refBlockBytes: block.number.toString(16).padStart(16, '0').slice(12), refBlockHash: id.slice(16, 32).toLowerCase() };
}

/** The raw_data of a TRC-20 transfer: the bytes its txID hashes and its signature signs. Throws, naming the field, on bad input. */
export function encodeTrc20Transfer(transfer: Trc20Transfer): Uint8Array {
  const owner = addressField('owner', transfer.owner);
  const contract = addressField('contract', transfer.contract);
  const to = addressField('to', transfer.to);
  if (typeof transfer.amount !== 'bigint' || transfer.amount <= 0n || transfer.amount >= UINT256_LIMIT) {
    throw new RangeError('amount must be a bigint more than 0 and less than 2^256');
  }
  if (typeof transfer.feeLimit !== 'bigint' || transfer.feeLimit <= 0n || transfer.feeLimit > MAX_FEE_LIMIT_SUN) {
    // 0 would be valid protobuf and a certain OUT_OF_ENERGY: energy bought with TRX is capped by fee_limit.
    throw new RangeError(`feeLimit must be a bigint of sun more than 0 and at most ${MAX_FEE_LIMIT_SUN}`);
  }
  if (!/^[0-9a-f]{4}$/.test(transfer.reference.refBlockBytes)) throw new RangeError('reference.refBlockBytes must be 2 bytes of lower-case hex');
  if (!/^[0-9a-f]{16}$/.test(transfer.reference.refBlockHash)) throw new RangeError('reference.refBlockHash must be 8 bytes of lower-case hex');
  if (!Number.isSafeInteger(transfer.timestamp) || transfer.timestamp <= 0) throw new RangeError('timestamp must be a whole number of milliseconds more than 0');
  if (!Number.isSafeInteger(transfer.expiration) || transfer.expiration <= transfer.timestamp || transfer.expiration > transfer.timestamp + MAX_EXPIRATION_MS) {
    throw new RangeError('expiration must be after timestamp, by at most 24 hours');
  }
  // The address word is the 20-byte account hash, zero-padded: Solidity's ABI decoder reverts on dirty upper bytes,
  // so TRON's 0x41 prefix stays out of it.
  const data = concatBytes(TRANSFER_SELECTOR, new Uint8Array(12), to.subarray(1), uint256(transfer.amount));
  const trigger = concatBytes(bytesField(1, owner), bytesField(2, contract), bytesField(4, data));
  const parameter = concatBytes(bytesField(1, TYPE_URL), bytesField(2, trigger));
  const contractMessage = concatBytes(varintField(1, TRIGGER_SMART_CONTRACT), bytesField(2, parameter));
  // Field order as java-tron writes it (by field number), so the bytes are the ones any other encoder produces.
  return concatBytes(
    bytesField(1, hexToBytes(transfer.reference.refBlockBytes)),
    bytesField(4, hexToBytes(transfer.reference.refBlockHash)),
    varintField(8, BigInt(transfer.expiration)),
    bytesField(11, contractMessage),
    varintField(14, BigInt(transfer.timestamp)),
    varintField(18, transfer.feeLimit),
  );
}

/** The transfer in a raw_data this module writes; throws for anything else, so what is decoded is what would be signed. */
export function decodeTrc20Transfer(rawData: Uint8Array): Trc20Transfer {
  const raw = readMessage(rawData, 'raw_data');
  const contract = readMessage(bytesAt(raw, 11, 'raw_data.contract'), 'raw_data.contract');
  if (varintAt(contract, 1, 'raw_data.contract.type') !== TRIGGER_SMART_CONTRACT) throw new Error('raw_data.contract is not a TriggerSmartContract');
  const parameter = readMessage(bytesAt(contract, 2, 'raw_data.contract.parameter'), 'raw_data.contract.parameter');
  if (!equalBytes(bytesAt(parameter, 1, 'raw_data.contract.parameter.type_url'), TYPE_URL)) throw new Error('raw_data.contract.parameter is not a TriggerSmartContract');
  const trigger = readMessage(bytesAt(parameter, 2, 'TriggerSmartContract'), 'TriggerSmartContract');
  const data = bytesAt(trigger, 4, 'TriggerSmartContract.data');
  if (data.length !== 68 || !equalBytes(data.subarray(0, 4), TRANSFER_SELECTOR)) throw new Error('TriggerSmartContract.data is not a transfer(address,uint256) call');
  const transfer: Trc20Transfer = {
    owner: tronAddressFromBytes(bytesAt(trigger, 1, 'TriggerSmartContract.owner_address')),
    contract: tronAddressFromBytes(bytesAt(trigger, 2, 'TriggerSmartContract.contract_address')),
    to: tronAddressFromBytes(Uint8Array.of(0x41, ...data.subarray(16, 36))),
    amount: BigInt(`0x${bytesToHex(data.subarray(36))}`),
    feeLimit: varintAt(raw, 18, 'raw_data.fee_limit'),
    reference: { refBlockBytes: bytesToHex(bytesAt(raw, 1, 'raw_data.ref_block_bytes')), refBlockHash: bytesToHex(bytesAt(raw, 4, 'raw_data.ref_block_hash')) },
    timestamp: Number(varintAt(raw, 14, 'raw_data.timestamp')),
    expiration: Number(varintAt(raw, 8, 'raw_data.expiration')),
  };
  // Whatever the reader let through (other fields, a dirty address word, another order) shows up here.
  if (!equalBytes(encodeTrc20Transfer(transfer), rawData)) throw new Error('raw_data holds more than a TRC-20 transfer, or not in the form java-tron writes');
  return transfer;
}

/** txID = sha256(raw_data), hex. */
export function transactionId(rawData: Uint8Array): string {
  return bytesToHex(sha256(rawData));
}

/**
 * The signature TRON checks: secp256k1 over the txID (RFC 6979, low s), as r || s || v with v the recovery id 0 or 1,
 * as java-tron's own signer (ECDSASignature.toByteArray) and Trust Wallet Core write it. TronWeb writes 27 or 28;
 * java-tron takes either (Rsv.fromSignature adds 27 below 27).
 */
export function signTxId(txId: Uint8Array, privateKey: Uint8Array): Uint8Array {
  if (txId.length !== 32) throw new RangeError('a txID is 32 bytes');
  const recovered = secp256k1.sign(txId, privateKey, { prehash: false, format: 'recovered' });
  return concatBytes(recovered.subarray(1), recovered.subarray(0, 1));
}

/** Signs a transfer's raw_data with its owner's key; refuses another key (java-tron would answer SIGERROR). */
export function signTransaction(rawData: Uint8Array, privateKey: Uint8Array): SignedTransaction {
  const { owner } = decodeTrc20Transfer(rawData);
  if (encodeAddress('tron', secp256k1.getPublicKey(privateKey, true)) !== owner) throw new Error(`the key does not sign for the owner ${owner}`);
  const txId = sha256(rawData);
  const signature = signTxId(txId, privateKey);
  return {
    txID: bytesToHex(txId),
    signature: bytesToHex(signature),
    transactionHex: bytesToHex(concatBytes(bytesField(1, rawData), bytesField(2, signature))),
  };
}

function addressField(field: string, address: string): Uint8Array {
  try {
    return tronAddressBytes(address);
  } catch (error) {
    throw new RangeError(`${field} must be a TRON base58check address (T…): ${(error as Error).message}`, { cause: error });
  }
}

function uint256(value: bigint): Uint8Array {
  return hexToBytes(value.toString(16).padStart(64, '0'));
}

// Protobuf, the two wire types these messages use: varint (0) and length-delimited (2).
function varint(value: bigint): Uint8Array {
  const out: number[] = [];
  let rest = value;
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest ? low | 0x80 : low);
  } while (rest);
  return Uint8Array.from(out);
}

const varintField = (field: number, value: bigint) => concatBytes(varint(BigInt(field << 3)), varint(value));
const bytesField = (field: number, bytes: Uint8Array) => concatBytes(varint(BigInt((field << 3) | 2)), varint(BigInt(bytes.length)), bytes);

/** A message's fields by number (each written once by this module's encoder; a repeat shows when re-encoded). */
function readMessage(bytes: Uint8Array, message: string): Map<number, bigint | Uint8Array> {
  const fields = new Map<number, bigint | Uint8Array>();
  let at = 0;
  const readVarint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; shift < 64n; shift += 7n) {
      if (at >= bytes.length) throw new Error(`${message} ends inside a varint`);
      const byte = bytes[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
    throw new Error(`${message} has a varint longer than 64 bits`);
  };
  while (at < bytes.length) {
    const key = readVarint();
    const field = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (wireType === 0) fields.set(field, readVarint());
    else if (wireType === 2) {
      const length = Number(readVarint());
      if (at + length > bytes.length) throw new Error(`${message} field ${field} runs past its end`);
      fields.set(field, bytes.subarray(at, at + length));
      at += length;
    } else throw new Error(`${message} field ${field} has wire type ${wireType}, which a TRC-20 transfer never uses`);
  }
  return fields;
}

function bytesAt(fields: Map<number, bigint | Uint8Array>, field: number, name: string): Uint8Array {
  const value = fields.get(field);
  if (!(value instanceof Uint8Array)) throw new Error(`${name} is missing or not bytes`);
  return value;
}

function varintAt(fields: Map<number, bigint | Uint8Array>, field: number, name: string): bigint {
  const value = fields.get(field);
  if (typeof value !== 'bigint') throw new Error(`${name} is missing or not a number`);
  return value;
}
