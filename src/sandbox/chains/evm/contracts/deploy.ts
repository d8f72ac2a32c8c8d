// Deploying the committed artifacts to a development node, from one of its unlocked accounts (no keys here).
import {
  createTestClient,
  createWalletClient,
  http,
  publicActions,
  TransactionReceiptNotFoundError,
  type Abi,
  type Address,
  type ContractConstructorArgs,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from 'viem';

export interface Artifact<TAbi extends Abi = Abi> {
  abi: TAbi;
  bytecode: Hex;
}

export interface MineOption {
  /** The node mines only on demand (anvil --no-mining): mine a block when the transaction is still pending. */
  mine?: boolean;
}

// A transaction not mined by then never will be on its own (a manual-mining node without `mine`): fail, don't hang.
const RECEIPT_TIMEOUT_MS = 10_000;

/** The transaction's receipt once it is in a block; throws if it reverted. */
export async function receiptOf(rpcUrl: string, hash: Hash, { mine = false }: MineOption = {}): Promise<TransactionReceipt> {
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).extend(publicActions);
  let receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error;
  });
  if (!receipt && mine) await client.mine({ blocks: 1 });
  receipt ??= await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: RECEIPT_TIMEOUT_MS });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

/** The new contract's address. */
export async function deployContract<const TAbi extends Abi>(
  rpcUrl: string,
  from: Address,
  artifact: Artifact<TAbi>,
  args: ContractConstructorArgs<TAbi>,
  options: MineOption = {},
): Promise<Address> {
  const wallet = createWalletClient({ account: from, transport: http(rpcUrl) });
  // The signature checks `args` against the ABI; viem's conditional parameter type cannot be resolved for a generic ABI.
  const hash = await wallet.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: args as readonly unknown[], chain: null });
  const { contractAddress } = await receiptOf(rpcUrl, hash, options);
  if (!contractAddress) throw new Error(`transaction ${hash} created no contract`);
  return contractAddress;
}
