// A stand-in browser wallet: announced by EIP-6963 like a real extension, its EIP-1193 request() answered here for
// the account, the chain and switching it, and forwarded to an anvil node (through a test-runner command) for the
// rest, where anvil's unlocked account signs. Its behaviour is the test's: refuse, not know a chain, lack funds.
import { executeServerCommand } from '@web/test-runner-commands';

export interface StandInOptions {
  name: string;
  rdns: string;
  /** The chain the wallet is on when asked (hex, e.g. `0xaa36a7`). */
  chainId: string;
  /** Chains the wallet can switch to without adding them. */
  knownChains?: string[];
  /** The customer refuses the transfer in the wallet (4001). */
  refuseTransfer?: boolean;
  /** The wallet refuses to switch chains (4001 on wallet_switchEthereumChain). */
  refuseSwitch?: boolean;
  /** What the wallet answers to the transfer instead of sending it, as wallets do (EIP-1193 / EIP-1474 errors). */
  failTransfer?: { code: number; message: string };
  /** The wallet is locked: it gives no account (4100). */
  locked?: boolean;
}

export interface StandIn {
  /** Every request the wallet got, in order (method and params). */
  requests: { method: string; params?: unknown }[];
  /** Stops answering discovery. */
  remove(): void;
}

const ICON = 'data:image/svg+xml;base64,' + btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" fill="#f6851b"/></svg>');

const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });

/** Announces a stand-in wallet now and whenever the page asks (EIP-6963). */
export function installStandInWallet(options: StandInOptions): StandIn {
  const requests: StandIn['requests'] = [];
  let chainId = options.chainId.toLowerCase();
  const known = new Set([chainId, ...(options.knownChains ?? []).map((c) => c.toLowerCase())]);
  const provider = {
    async request({ method, params }: { method: string; params?: unknown[] }): Promise<unknown> {
      requests.push({ method, params });
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          if (options.locked) throw rpcError(4100, 'The requested account and/or method has not been authorized by the user.');
          return [await executeServerCommand<string, undefined>('anvil-account')];
        case 'eth_chainId':
          return chainId;
        case 'wallet_switchEthereumChain': {
          if (options.refuseSwitch) throw rpcError(4001, 'User rejected the request.');
          const wanted = String((params?.[0] as { chainId: string }).chainId).toLowerCase();
          if (!known.has(wanted)) throw rpcError(4902, 'Unrecognized chain ID.');
          chainId = wanted;
          return null;
        }
        case 'wallet_addEthereumChain': {
          const added = String((params?.[0] as { chainId: string }).chainId).toLowerCase();
          known.add(added);
          chainId = added;
          return null;
        }
        case 'eth_sendTransaction':
          if (options.refuseTransfer) throw rpcError(4001, 'User rejected the request.');
          if (options.failTransfer) throw rpcError(options.failTransfer.code, options.failTransfer.message);
          break;
      }
      const answer = await executeServerCommand<{ result?: unknown; error?: { code: number; message: string } }, object>('wallet-rpc', { method, params });
      if (answer.error) throw rpcError(answer.error.code, answer.error.message);
      return answer.result;
    },
  };
  const detail = Object.freeze({ info: Object.freeze({ uuid: crypto.randomUUID(), name: options.name, icon: ICON, rdns: options.rdns }), provider });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  return { requests, remove: () => window.removeEventListener('eip6963:requestProvider', announce) };
}

/** Anvil's chain id, as a wallet writes it (hex). */
export const anvilChainId = async (): Promise<string> => `0x${(await executeServerCommand<number, undefined>('anvil-chain-id')).toString(16)}`;
export const anvilGatewayUrl = () => executeServerCommand<string, undefined>('anvil-gateway-url');
export const anvilCreateLink = () => executeServerCommand<{ payment_link_ref: string }, object>('anvil-create-link', {});
export const anvilMine = (blocks: number) => executeServerCommand<true, object>('anvil-mine', { blocks });
export const walletRpc = async <T>(method: string, params: unknown[]): Promise<T> => {
  const answer = await executeServerCommand<{ result?: T; error?: { message: string } }, object>('wallet-rpc', { method, params });
  if (answer.error) throw new Error(answer.error.message);
  return answer.result as T;
};
