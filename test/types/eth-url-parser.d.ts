// eth-url-parser ships no types: what the tests use of it (an EIP-681 URI read back as a wallet reads it).
declare module 'eth-url-parser' {
  export interface ParsedEthereumUrl {
    scheme: string;
    prefix?: string;
    target_address: string;
    chain_id?: string;
    function_name?: string;
    parameters?: Record<string, string>;
  }
  export function parse(uri: string): ParsedEthereumUrl;
  export function build(data: ParsedEthereumUrl): string;
}
